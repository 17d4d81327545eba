"use client";
/**
 * "Would the edge get a certificate for this host, and why?": the TLS allow-list answer of the
 * Operator API (the same decision /api/tls/allowed makes), with the custom domain behind it.
 * The answer is read for the host last submitted; a 400 names the Host field.
 */
import { useQuery } from "@tanstack/react-query";
import { ShieldQuestion } from "lucide-react";
import { useState } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormError, Input } from "@/components/ui/field";
import { formatTime } from "../format";
import { useOperator } from "../context";
import {
  customDomainOperatorKeys,
  DOMAIN_STATUS_OPTIONS,
  REQUIRED_ACTION_LABELS,
  TLS_CODE_LABELS,
  type TTlsCheck,
} from "./queries";

function Answer({ answer }: { answer: TTlsCheck }) {
  const d = answer.domain;
  return (
    <div className="space-y-3 rounded-md border border-gray-200 p-3" data-testid="tls-answer">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={answer.allowed ? "green" : "red"}>
          <span data-testid="tls-allowed">{answer.allowed ? "Allowed" : "Refused"}</span>
        </Badge>
        <span className="font-mono break-all">{answer.normalizedHost ?? answer.host}</span>
        <span className="text-gray-700">
          {TLS_CODE_LABELS[answer.code]} (<code data-testid="tls-code">{answer.code}</code>)
        </span>
      </p>
      <p className="text-sm break-words text-gray-900" data-testid="tls-reason">
        {answer.reason}
      </p>
      {d ? (
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {(
            [
              ["Host role", d.role === "web" ? "Web (hosted pages)" : "OIDC"],
              ["Hosts", `${d.webDomain} · ${d.oidcDomain}`],
              [
                "State",
                `${DOMAIN_STATUS_OPTIONS.find((o) => o.value === d.status)?.label ?? d.status} (${d.status})`,
              ],
              ["Required action", REQUIRED_ACTION_LABELS[d.requiredAction] ?? d.requiredAction],
              ["Last DNS check", formatTime(d.lastCheckedAt)],
              ["Environment", d.environment === "sandbox" ? "Sandbox" : "Production"],
              ["App", `${d.app.name} (${d.app.clientId})${d.app.deleted ? " · deleted" : ""}`],
              ["Workspace", `${d.workspace.name} (${d.workspace.workspaceId})`],
            ] as const
          ).map(([k, v]) => (
            <div key={k} className="min-w-0">
              <dt className="font-medium text-gray-700">{k}</dt>
              <dd className="break-words">{v}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm text-gray-700">No custom domain uses this host, in either environment.</p>
      )}
    </div>
  );
}

export function TlsCheck() {
  const { env } = useOperator();
  const [draft, setDraft] = useState("");
  const [host, setHost] = useState<string | null>(null);
  const query = useQuery({
    queryKey: customDomainOperatorKeys.tls(env, host ?? ""),
    queryFn: () => api<TTlsCheck>(env, "/v1/operator/custom-domains/tls-check", { query: { host } }),
    enabled: host !== null,
    // the answer follows the domain's state: ask again on every check
    staleTime: 0,
    retry: false,
  });
  const apiError = query.error instanceof ApiRequestError ? query.error : undefined;
  const hostError = apiError?.fieldError("host");
  return (
    <Card title="TLS check">
      <div className="space-y-4">
        <p className="text-sm text-gray-700">
          Whether the edge would be given a certificate for a host, and why. The edge serves both
          environments, so the answer is the same in either.
        </p>
        <form
          role="search"
          aria-label="TLS check"
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            // the same host again asks again (the state may have changed)
            if (draft === host) void query.refetch();
            else setHost(draft);
          }}
        >
          <Input
            label="Host"
            fieldClassName="min-w-0 flex-1"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="verify.shop.example.com"
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="none"
            error={hostError}
          />
          <Button
            type="submit"
            icon={<ShieldQuestion aria-hidden className="h-4 w-4" />}
            pending={query.isFetching}
            className="sm:mb-px"
          >
            Check
          </Button>
        </form>
        <div aria-live="polite">
          {query.data && !query.isError ? <Answer answer={query.data} /> : null}
          {query.isError && !hostError ? <FormError message={errorMessage(query.error)} /> : null}
        </div>
      </div>
    </Card>
  );
}
