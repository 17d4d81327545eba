"use client";
/**
 * A test sign-in's result: its outcome, the claims under OIDC names (mapped by the connection as a
 * production sign-in maps them), the level, and the upstream's raw claims. The result tab also
 * hands the result to the back-office tab that started it (BroadcastChannel, same origin only), for
 * the claim-mapping preview; nothing is stored, in the browser or on the server.
 */
import { Send } from "lucide-react";
import { useEffect } from "react";
import type { TEnv } from "@/components/console/api";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TEST_SIGN_IN_CHANNEL, type TTestResult, type TTestSignInMessage } from "./queries";

const OUTCOMES: Record<TTestResult["outcome"], { label: string; tone: BadgeTone }> = {
  success: { label: "Signed in", tone: "green" },
  cancelled: { label: "Cancelled at the provider", tone: "amber" },
  failure: { label: "Failed", tone: "red" },
  refused: { label: "Refused", tone: "red" },
};

/** A claims list (name → JSON value), shared by the result and the mapping editor's preview. */
export function Claims({
  label,
  claims,
  testId,
  level = 3,
}: {
  label: string;
  claims: Record<string, unknown>;
  testId: string;
  /** the heading's level where the list stands */
  level?: 3 | 4;
}) {
  const entries = Object.entries(claims);
  const Heading = level === 3 ? "h3" : "h4";
  const body = (
    <>
      <Heading className="text-sm font-semibold text-gray-900">{label}</Heading>
      {entries.length ? (
        <dl className="space-y-1 text-sm" data-testid={testId}>
          {entries.map(([k, v]) => (
            <div key={k} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-2">
              <dt className="font-mono text-xs break-all text-gray-700">{k}</dt>
              <dd className="font-mono text-xs break-all text-gray-900">{JSON.stringify(v)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm text-gray-700" data-testid={testId}>
          None
        </p>
      )}
    </>
  );
  // a region of its own on the result; inside the mapping editor's preview section, a plain block
  return level === 3 ? (
    <section className="min-w-0 space-y-2" aria-label={label}>
      {body}
    </section>
  ) : (
    <div className="min-w-0 space-y-1">{body}</div>
  );
}

export function TestResultSummary({ result, heading }: { result: TTestResult; heading: string }) {
  const outcome = OUTCOMES[result.outcome];
  return (
    <div className="space-y-3 rounded-md border border-gray-200 p-3" data-testid="test-sign-in-result">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-base font-semibold text-gray-900">{heading}</h3>
        <Badge tone={outcome.tone}>
          <span data-testid="test-outcome">{outcome.label}</span>
        </Badge>
        {result.loa !== null ? <span className="text-sm text-gray-700">LoA {result.loa}</span> : null}
      </div>
      {result.message ? (
        <p className="text-sm break-words text-gray-900">
          {result.reason && result.reason !== "refused" ? (
            <span className="font-mono text-xs">{result.reason}: </span>
          ) : null}
          {result.message}
        </p>
      ) : null}
      {result.truncated ? (
        <p className="text-sm text-amber-900">
          The claims were too large to carry to this page; only the outcome is shown.
        </p>
      ) : null}
      {result.outcome === "success" ? (
        <div className="grid gap-4 md:grid-cols-2">
          <Claims label="Mapped claims" claims={result.claims} testId="mapped-claims" />
          <Claims label="Upstream claims" claims={result.rawClaims} testId="raw-claims" />
        </div>
      ) : null}
    </div>
  );
}

function announce(env: TEnv, providerId: string, result: TTestResult): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(TEST_SIGN_IN_CHANNEL);
  const message: TTestSignInMessage = { type: "test-sign-in-result", env, providerId, result };
  channel.postMessage(message);
  channel.close();
}

/** The result tab's body: the result, announced to the back-office tab once shown. */
export function TestSignInResultView({
  env,
  providerId,
  providerName,
  result,
}: {
  env: TEnv;
  providerId: string;
  providerName: string;
  result: TTestResult;
}) {
  useEffect(() => announce(env, providerId, result), [env, providerId, result]);
  return (
    <Card title={`Test sign-in through ${providerName}`}>
      <div className="space-y-4">
        <TestResultSummary result={result} heading="Result" />
        <p className="text-sm text-gray-700">
          Nothing of this sign-in is stored. The connection page that started it shows these claims in its
          mapping preview; you can close this tab.
        </p>
        <Button
          variant="secondary"
          icon={<Send aria-hidden className="h-4 w-4" />}
          onClick={() => announce(env, providerId, result)}
        >
          Send the claims to the connection page again
        </Button>
      </div>
    </Card>
  );
}
