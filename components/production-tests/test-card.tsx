"use client";
/**
 * One production test: what was asked for, where it stands (pending, failed with the operator's
 * reason, or its challenge running, completed or expired), the challenge's progress from its
 * report (stamps claimed against the stamps needed, participations, claims per provider), and a
 * way to take part from the console (a challenge session).
 */
import { useMutation } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import Link from "next/link";
import { useId, useState, type ReactNode } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { formatDateTime } from "@/components/verifications/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { FormError, Select } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { Table, TBody, Td, Th } from "@/components/ui/table";
import { PLATFORM_LABELS, plural, share, STATE_BADGES, testState, type TTestState } from "./format";
import {
  productionTestsPath,
  useChallengeReport,
  type TAppProvider,
  type TChallenge,
  type TProductionTestItem,
  type TStartedSession,
} from "./queries";

type TChallengeItem = Extract<TProductionTestItem, { type: "challenge" }>;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-gray-600 uppercase">{label}</dt>
      <dd className="text-sm break-words text-gray-900">{children}</dd>
    </div>
  );
}

function StateNote({ item, state }: { item: TProductionTestItem; state: TTestState }) {
  const { request } = item;
  if (state === "pending")
    return (
      <p className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-950">
        <strong>Waiting for an operator.</strong> They review the request and schedule it as a challenge, or
        mark it failed with the reason shown here. Nothing to do until then; this page updates by itself.
      </p>
    );
  if (state === "failed")
    return (
      <div className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
        <p className="font-semibold">An operator marked this request as failed.</p>
        <p>
          Reason: <span data-testid="failure-reason">{request.failureReason ?? "No reason was given."}</span>
        </p>
        <p className="mt-1">Fix what the reason names, then request a new test.</p>
      </div>
    );
  if (item.type !== "challenge") return null;
  const { challenge } = item;
  if (state === "active")
    return (
      <p className="rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-950">
        <strong>Scheduled.</strong> The challenge runs until {formatDateTime(challenge.expiresAt)} or until
        all {plural(request.payload.maxStampClaims, "stamp is", "stamps are")} claimed, whichever comes first.
      </p>
    );
  if (state === "completed")
    return (
      <p className="rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-950">
        <strong>Completed</strong> on {formatDateTime(challenge.completedAt)}: every stamp was claimed. The
        report below is final.
      </p>
    );
  return (
    <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <strong>Expired</strong> on {formatDateTime(challenge.expiresAt)} before every stamp was claimed. The
      report below is final; request a new test to continue.
    </p>
  );
}

function Stat({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: number;
  note: string;
  testId: string;
}) {
  return (
    <div className="rounded-md border border-gray-200 p-3">
      <dt className="text-sm font-medium text-gray-700">{label}</dt>
      <dd className="text-xl font-semibold text-gray-900 tabular-nums" data-testid={testId}>
        {value.toLocaleString("en")}
      </dd>
      <dd className="text-xs text-gray-600">{note}</dd>
    </div>
  );
}

function Progress({ clientId, item }: { clientId: string; item: TChallengeItem }) {
  const report = useChallengeReport(clientId, item.challenge);
  const labelId = useId();
  const max = item.request.payload.maxStampClaims;
  const title = item.request.payload.title;
  let body: ReactNode;
  if (report.isPending) body = <Loading label="Loading the report" />;
  else if (report.isError && !report.data)
    body = (
      <div className="space-y-2">
        <FormError message={errorMessage(report.error)} />
        <Button variant="secondary" size="sm" onClick={() => report.refetch()}>
          Try again
        </Button>
      </div>
    );
  else {
    const { totalClaims, totalParticipations, providerBreakdown } = report.data.stats;
    const percent = share(totalClaims, max);
    body = (
      <div className="space-y-4">
        {report.isError ? <FormError message={`Refreshing failed: ${errorMessage(report.error)}`} /> : null}
        <div>
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
            <span id={labelId} className="font-medium text-gray-900">
              Stamps claimed
            </span>
            <span className="text-gray-900 tabular-nums" data-testid="stamp-progress">
              {totalClaims.toLocaleString("en")} of {max.toLocaleString("en")} ({percent}%)
            </span>
          </div>
          <div
            role="progressbar"
            aria-labelledby={labelId}
            aria-valuemin={0}
            aria-valuemax={max}
            aria-valuenow={Math.min(totalClaims, max)}
            aria-valuetext={`${totalClaims} of ${max} stamps claimed (${percent}%)`}
            className="mt-1 h-3 w-full rounded bg-gray-100"
          >
            <div className="h-3 rounded bg-green-700" style={{ width: `${percent}%` }} />
          </div>
        </div>
        <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-3">
          <Stat
            label="Participations"
            testId="participations"
            value={totalParticipations}
            note="Attempts, successful or not"
          />
          <Stat
            label="Stamps claimed"
            testId="claims"
            value={totalClaims}
            note="One per successful verification"
          />
          <Stat
            label="Stamps left"
            testId="stamps-left"
            value={Math.max(0, max - totalClaims)}
            note={`Of ${plural(max, "stamp", "stamps")} needed`}
          />
        </dl>
        <Table caption={`Stamps claimed per provider: ${title}`}>
          <thead>
            <tr>
              <Th>Provider</Th>
              <Th className="text-right">Stamps claimed</Th>
              <Th>Share of claims</Th>
            </tr>
          </thead>
          <TBody>
            {providerBreakdown.map((p) => {
              const part = share(p.claimCount, totalClaims);
              return (
                <tr key={p.providerId}>
                  <Td className="font-medium">{p.providerName}</Td>
                  <Td className="text-right tabular-nums">{p.claimCount.toLocaleString("en")}</Td>
                  <Td className="min-w-32">
                    <div className="flex items-center gap-2">
                      <span className="w-10 text-right tabular-nums">{part}%</span>
                      <div aria-hidden="true" className="h-2.5 flex-1 rounded bg-gray-100">
                        <div className="h-2.5 rounded bg-blue-600" style={{ width: `${part}%` }} />
                      </div>
                    </div>
                  </Td>
                </tr>
              );
            })}
          </TBody>
        </Table>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <h4 className="text-base font-semibold text-gray-900">Progress</h4>
      {body}
    </div>
  );
}

/** Why the console cannot start a session with this provider, or undefined when it can. */
function unusableReason(provider: TAppProvider | undefined): string | undefined {
  if (!provider || !provider.isActive) return "not activated";
  if (provider.verificationModel === "match") return "needs your server";
  if (!provider.enabled) return "switched off";
  return undefined;
}

function TakePart({
  clientId,
  challenge,
  providerIds,
  providers,
  providerName,
}: {
  clientId: string;
  challenge: TChallenge;
  providerIds: string[];
  providers: TAppProvider[] | undefined;
  providerName: (id: string) => string;
}) {
  const { env } = useConsole();
  const options = providerIds.map((id) => ({
    id,
    reason: providers ? unusableReason(providers.find((p) => p.id === id)) : undefined,
  }));
  const [picked, setPicked] = useState<string | undefined>();
  const providerId = picked ?? options.find((o) => !o.reason)?.id ?? providerIds[0];
  const mutation = useMutation({
    mutationFn: () =>
      api<TStartedSession>(env, productionTestsPath(clientId, challenge.id, "sessions"), {
        method: "POST",
        body: providerId ? { providerId } : {},
      }),
    onSuccess: (session) => {
      window.open(session.url, "_blank", "noopener");
    },
  });
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const providerError = error?.fieldError("providerId");
  return (
    <div className="space-y-3 border-t border-gray-200 pt-4">
      <h4 className="text-base font-semibold text-gray-900">Take part yourself</h4>
      <p className="text-sm text-gray-700">
        {env === "sandbox"
          ? "Go through the challenge as an end-user would. The session opens in a new tab, where the sandbox simulator stands in for the provider with test identities."
          : "Go through the challenge as an end-user would, with your own identity: the session opens in a new tab and runs on the real provider."}{" "}
        When it ends it counts as a participation; a successful verification claims one stamp.
      </p>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate();
        }}
      >
        <Select
          label="Provider"
          fieldClassName="min-w-0 flex-1 sm:max-w-xs"
          value={providerId}
          onChange={(e) => setPicked(e.target.value)}
          error={providerError}
        >
          {options.map((o) => (
            <option key={o.id} value={o.id} disabled={Boolean(o.reason)}>
              {o.reason ? `${providerName(o.id)} (${o.reason})` : providerName(o.id)}
            </option>
          ))}
        </Select>
        <Button
          type="submit"
          variant="secondary"
          icon={<ExternalLink aria-hidden className="h-4 w-4" />}
          pending={mutation.isPending}
        >
          Start challenge session
        </Button>
      </form>
      <FormError message={mutation.error && !providerError ? errorMessage(mutation.error) : null} />
      {mutation.data ? (
        <p role="status" className="text-sm text-gray-900" data-testid="challenge-session">
          Started{" "}
          <Link
            className="font-semibold break-all text-blue-800 underline"
            href={`/console/${env}/verifications/${mutation.data.verificationId}`}
          >
            {mutation.data.verificationId}
          </Link>
          . The verification page opened in a new tab (
          <a className="text-blue-800 underline" href={mutation.data.url} target="_blank" rel="noopener">
            open the verification page
          </a>
          ). Progress updates here once you finish it.
        </p>
      ) : null}
    </div>
  );
}

export function ProductionTestCard({
  clientId,
  item,
  providers,
  providerName,
}: {
  clientId: string;
  item: TProductionTestItem;
  providers: TAppProvider[] | undefined;
  providerName: (id: string) => string;
}) {
  const { permissions } = useConsole();
  const titleId = useId();
  const state = testState(item);
  const badge = STATE_BADGES[state];
  const { request } = item;
  const challenge = item.type === "challenge" ? item.challenge : null;
  return (
    <article
      aria-labelledby={titleId}
      className="space-y-4 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6"
      data-testid="production-test"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="min-w-0 text-lg font-semibold break-words text-gray-900">
          {request.payload.title}
        </h3>
        <Badge tone={badge.tone}>
          <span className="sr-only">Status: </span>
          <span data-testid="test-status">{badge.label}</span>
        </Badge>
      </div>
      <StateNote item={item} state={state} />
      <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
        <Fact label="Requested">{formatDateTime(request.createdAt)}</Fact>
        <Fact label="Providers">{request.payload.providerIds.map(providerName).join(", ")}</Fact>
        <Fact label="Stamps needed">{request.payload.maxStampClaims.toLocaleString("en")}</Fact>
        <Fact label="Target platform">{PLATFORM_LABELS[request.payload.targetPlatform ?? "none"]}</Fact>
        {challenge ? (
          <>
            <Fact label="Scheduled">{formatDateTime(challenge.createdAt)}</Fact>
            <Fact label={challenge.isActive ? "Ends" : "End date"}>
              {formatDateTime(challenge.expiresAt)}
            </Fact>
            {challenge.description ? <Fact label="Description">{challenge.description}</Fact> : null}
            <Fact label="Challenge ID">
              <span className="flex flex-wrap items-center gap-2">
                <code className="font-mono text-xs break-all">{challenge.id}</code>
                <CopyButton value={challenge.id} label="Copy challenge ID" />
              </span>
            </Fact>
          </>
        ) : (
          <Fact label="Request ID">
            <code className="font-mono text-xs break-all">{request.id}</code>
          </Fact>
        )}
      </dl>
      {item.type === "challenge" ? <Progress clientId={clientId} item={item} /> : null}
      {challenge && challenge.isActive && permissions.write ? (
        <TakePart
          clientId={clientId}
          challenge={challenge}
          providerIds={request.payload.providerIds}
          providers={providers}
          providerName={providerName}
        />
      ) : null}
    </article>
  );
}
