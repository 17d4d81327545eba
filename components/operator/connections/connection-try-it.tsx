"use client";
/**
 * The "Try it" card of a connection (./connection-detail.tsx): "Check connection" with the
 * check's answer, and "Test sign-in", which opens the upstream in a new tab (the result tab hands
 * its claims back to the page, shown here as the last test sign-in). Both run the saved connection.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FlaskConical, PlugZap } from "lucide-react";
import { useState } from "react";
import { api, errorMessage } from "@/components/console/api";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormError } from "@/components/ui/field";
import { formatTime } from "../format";
import { useOperator } from "../context";
import {
  connectionKeys,
  connectionPath,
  type TConnection,
  type TConnectionCheck,
  type TTestResult,
} from "./queries";
import { TestResultSummary } from "./test-result";

function CheckAnswer({ answer }: { answer: TConnectionCheck }) {
  const { ok, error, warnings, checkedAt, ...rest } = answer as TConnectionCheck & { warnings?: string[] };
  return (
    <div className="space-y-2 rounded-md border border-gray-200 p-3" data-testid="check-answer">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={ok ? "green" : "red"}>
          <span data-testid="check-ok">{ok ? "Check passed" : "Check failed"}</span>
        </Badge>
        <span className="text-gray-700">{formatTime(checkedAt)}</span>
      </p>
      {error ? (
        <p className="text-sm break-words text-red-800" data-testid="check-error">
          {error}
        </p>
      ) : null}
      {warnings?.length ? (
        <ul className="list-disc space-y-1 pl-5 text-sm text-amber-900" aria-label="Warnings">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-gray-700">No warnings.</p>
      )}
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-blue-800">What the check found</summary>
        <pre className="mt-2 overflow-x-auto rounded bg-gray-50 p-2 text-xs">
          {JSON.stringify(rest, null, 2)}
        </pre>
      </details>
    </div>
  );
}

/** Check connection and Test sign-in of the saved connection, with their answers. */
export function ConnectionTryIt({
  connection,
  lastTest,
}: {
  connection: TConnection;
  lastTest: TTestResult | null;
}) {
  const { env } = useOperator();
  const queryClient = useQueryClient();
  const check = useMutation({
    mutationFn: () =>
      api<TConnectionCheck>(env, connectionPath(connection.providerId, "check"), { method: "POST" }),
    // a check moves the connection between connected and failing
    onSettled: () => void queryClient.invalidateQueries({ queryKey: connectionKeys.all(env) }),
  });
  const [signInUrl, setSignInUrl] = useState<string | null>(null);
  const testSignIn = useMutation({
    mutationFn: () =>
      api<{ url: string }>(env, connectionPath(connection.providerId, "test-sign-in"), { method: "POST" }),
  });
  const connected = connection.connectionId !== null;

  const onTestSignIn = () => {
    setSignInUrl(null);
    // opened now, within the click (popup blockers), pointed at the upstream once the API answers
    const tab = window.open("", "_blank");
    testSignIn.mutate(undefined, {
      onSuccess: ({ url }) => {
        if (tab) {
          tab.opener = null;
          tab.location.href = url;
        } else setSignInUrl(url);
      },
      onError: () => tab?.close(),
    });
  };

  return (
    <Card title="Try it">
      <div className="space-y-4">
        <p className="text-sm text-gray-700">
          {connected
            ? "Check connection and Test sign-in use the saved settings. The test sign-in opens the identity provider in a new tab; its claims are shown there and here, and are never stored."
            : "Save a connection first: Check connection and Test sign-in use the saved settings."}
        </p>
        <div className="flex flex-wrap gap-3">
          <Button
            variant="secondary"
            disabled={!connected}
            pending={check.isPending}
            onClick={() => check.mutate()}
            icon={<PlugZap aria-hidden className="h-4 w-4" />}
          >
            Check connection
          </Button>
          <Button
            variant="secondary"
            disabled={!connected || connection.adapter === "wallet"}
            pending={testSignIn.isPending}
            onClick={onTestSignIn}
            icon={<FlaskConical aria-hidden className="h-4 w-4" />}
          >
            Test sign-in
          </Button>
        </div>
        <div aria-live="polite" className="space-y-3">
          {check.data ? <CheckAnswer answer={check.data} /> : null}
          {check.isError ? <FormError message={errorMessage(check.error)} /> : null}
          {testSignIn.isError ? <FormError message={errorMessage(testSignIn.error)} /> : null}
          {signInUrl ? (
            <p className="text-sm">
              The browser kept the new tab from opening:{" "}
              <a
                href={signInUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="font-semibold text-blue-800 underline"
              >
                open the test sign-in
              </a>
              .
            </p>
          ) : null}
          {lastTest ? <TestResultSummary result={lastTest} heading="Last test sign-in" /> : null}
        </div>
      </div>
    </Card>
  );
}
