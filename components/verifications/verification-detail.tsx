"use client";
/**
 * One verification session: its state and facts, one timeline merging its events, the API
 * requests that named it and its webhook deliveries; cancelling an open session; revealing the
 * claims of a completed one (owners and admins, audited). Refreshes while the session is open.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Ban, Eye, EyeOff, ListTree } from "lucide-react";
import Link from "next/link";
import { useMemo, useRef, useState } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { auditKeys } from "@/components/audit/queries";
import { statsKeys } from "@/components/dashboard/queries";
import { requestLogKeys } from "@/components/request-log/queries";
import { Badge, statusTone } from "@/components/ui/badge";
import { Button, ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/field";
import { useFocusWhenLost } from "@/components/ui/focus";
import { Loading } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { isTerminal } from "@/lib/verifications/state-machine";
import {
  flowLabel,
  formatDateTime,
  formatSeconds,
  loaLabel,
  providerNamer,
  secondsBetween,
  statusLabel,
  type TProviderOption,
} from "./format";
import { LIVE_INTERVAL_MS, verificationKeys, type TUserinfo, type TVerificationActivity } from "./queries";
import { Timeline } from "./timeline";

function useActivity(verificationId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: verificationKeys.activity(env, verificationId),
    queryFn: ({ signal }) =>
      api<TVerificationActivity>(env, `/v1/verifications/${encodeURIComponent(verificationId)}/activity`, {
        signal,
      }),
    // open sessions (and webhook deliveries still being retried) change by themselves
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data) return false;
      const pending = data.deliveries.some((d) => d.status === "pending");
      return !isTerminal(data.verification.status) || pending ? LIVE_INTERVAL_MS : false;
    },
  });
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-gray-600 uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-gray-900">{children}</dd>
    </div>
  );
}

function CancelVerification({ verification }: { verification: TVerificationActivity["verification"] }) {
  const { env, permissions } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const mutation = useMutation({
    mutationFn: () =>
      api(env, `/v1/verifications/${encodeURIComponent(verification.verificationId)}/cancel`, {
        method: "POST",
      }),
    onSuccess: () => {
      setOpen(false);
      toast.show({ message: "Verification cancelled" });
    },
    // not awaited: a refused cancel shows its error with the API's answer, not after four refetches
    onSettled: () => {
      for (const queryKey of [
        verificationKeys.all(env),
        statsKeys.all(env),
        auditKeys.all(env),
        requestLogKeys.all(env),
      ])
        void queryClient.invalidateQueries({ queryKey });
    },
  });
  if (!permissions.write || isTerminal(verification.status)) return null;
  const close = () => {
    mutation.reset();
    setOpen(false);
  };
  return (
    <>
      <Button variant="danger" icon={<Ban aria-hidden className="h-4 w-4" />} onClick={() => setOpen(true)}>
        Cancel verification
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title="Cancel this verification?"
        description="The session ends at once: the end-user can no longer finish it, its personal data is deleted and your webhook receives verification.workflow.cancelled. This cannot be undone."
      >
        <div className="space-y-4">
          <FormError message={mutation.error ? errorMessage(mutation.error) : null} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Keep it
            </Button>
            <Button variant="danger" pending={mutation.isPending} onClick={() => mutation.mutate()}>
              Cancel verification
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}

function ClaimValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-gray-600">—</span>;
  if (typeof value === "object") {
    if (!Array.isArray(value)) {
      const entries = Object.entries(value as Record<string, unknown>);
      const formatted = (value as { formatted?: unknown }).formatted;
      if (typeof formatted === "string") return <span className="whitespace-pre-line">{formatted}</span>;
      return (
        <dl className="space-y-0.5">
          {entries.map(([k, v]) => (
            <div key={k} className="flex flex-wrap gap-x-2">
              <dt className="font-mono text-xs text-gray-600">{k}</dt>
              <dd>{typeof v === "object" ? JSON.stringify(v) : String(v)}</dd>
            </div>
          ))}
        </dl>
      );
    }
    return (
      <span>{value.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v))).join(", ")}</span>
    );
  }
  return <span>{String(value)}</span>;
}

function RevealedClaims({ userinfo }: { userinfo: TUserinfo }) {
  const claims = Object.entries(userinfo.user);
  return (
    <div className="space-y-4" data-testid="personal-data">
      <Table2
        caption="Claims"
        rows={claims.map(([name, value]) => ({ name, value }))}
        empty="The provider returned no claims."
      />
      <dl className="grid gap-3 sm:grid-cols-2">
        <Fact label="Subject (sub)">
          <code className="font-mono text-xs break-all">{userinfo.sub}</code>
        </Fact>
        <Fact label="Level of assurance">
          {userinfo.service_loa_label} <span className="text-gray-600">({userinfo.acr})</span>
        </Fact>
        <Fact label="Verification model">{userinfo.verification_model}</Fact>
        <Fact label="Missing claims">
          {userinfo.missing_claims.length ? userinfo.missing_claims.join(", ") : "None"}
        </Fact>
      </dl>
      {userinfo.match ? (
        <details className="rounded-md border border-gray-200 p-3 text-sm">
          <summary className="cursor-pointer font-semibold">Match result</summary>
          <pre className="mt-2 overflow-x-auto text-xs" tabIndex={0}>
            {JSON.stringify(userinfo.match, null, 2)}
          </pre>
        </details>
      ) : null}
      <details className="rounded-md border border-gray-200 p-3 text-sm">
        <summary className="cursor-pointer font-semibold">Provenance</summary>
        <pre className="mt-2 overflow-x-auto text-xs" tabIndex={0}>
          {JSON.stringify(userinfo.provenance, null, 2)}
        </pre>
      </details>
    </div>
  );
}

/** A two-column claim table (name, value) that wraps instead of scrolling at 360 px. */
function Table2({
  caption,
  rows,
  empty,
}: {
  caption: string;
  rows: { name: string; value: unknown }[];
  empty: string;
}) {
  if (rows.length === 0) return <p className="text-sm text-gray-700">{empty}</p>;
  return (
    <table className="w-full table-fixed text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-gray-200">
          <th scope="col" className="w-2/5 py-1.5 pr-3 text-xs font-semibold text-gray-700 uppercase">
            Claim
          </th>
          <th scope="col" className="py-1.5 text-xs font-semibold text-gray-700 uppercase">
            Value
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-100">
        {rows.map((r) => (
          <tr key={r.name}>
            <th scope="row" className="py-1.5 pr-3 align-top font-mono text-xs font-normal break-all">
              {r.name}
            </th>
            <td className="py-1.5 align-top break-words">
              <ClaimValue value={r.value} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PersonalData({ verification }: { verification: TVerificationActivity["verification"] }) {
  const { env, permissions } = useConsole();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () =>
      api<TUserinfo>(env, `/v1/verifications/${encodeURIComponent(verification.verificationId)}/reveal`, {
        method: "POST",
      }),
    // the claims live only in this component: dropped from the mutation cache once it unmounts
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auditKeys.all(env) }),
    onError: (err) => {
      // deleted meanwhile (retention, cancel): the activity says since when
      if (err instanceof ApiRequestError && (err.status === 410 || err.status === 409))
        void queryClient.invalidateQueries({
          queryKey: verificationKeys.activity(env, verification.verificationId),
        });
    },
  });
  const { personalData, status } = verification;

  let body: React.ReactNode;
  if (personalData.deletedAt) {
    body = (
      <p className="text-sm text-gray-800" data-testid="personal-data-deleted">
        The personal data of this verification was deleted on{" "}
        <time dateTime={personalData.deletedAt} className="font-semibold">
          {formatDateTime(personalData.deletedAt)}
        </time>
        {status === "cancelled" ? " when it was cancelled." : " at the end of the retention period."}
      </p>
    );
  } else if (!isTerminal(status)) {
    body = (
      <p className="text-sm text-gray-700">Personal data is available once the verification completes.</p>
    );
  } else if (status !== "completed" || !personalData.available) {
    body = <p className="text-sm text-gray-700">This verification holds no personal data.</p>;
  } else if (!permissions.personal_data) {
    body = (
      <p className="text-sm text-gray-700">
        Personal data is hidden. Only workspace owners and admins can reveal it.
      </p>
    );
  } else if (mutation.data) {
    body = (
      <div className="space-y-4">
        <RevealedClaims userinfo={mutation.data} />
        <Button
          variant="secondary"
          icon={<EyeOff aria-hidden className="h-4 w-4" />}
          onClick={() => mutation.reset()}
        >
          Hide personal data
        </Button>
      </div>
    );
  } else {
    body = (
      <div className="space-y-3">
        <p className="text-sm text-gray-700">
          The claims are hidden. Revealing them is recorded in the audit log with your name.
        </p>
        <Button
          variant="secondary"
          icon={<Eye aria-hidden className="h-4 w-4" />}
          pending={mutation.isPending}
          onClick={() => mutation.mutate()}
        >
          Reveal personal data
        </Button>
        <FormError message={mutation.error ? errorMessage(mutation.error) : null} />
      </div>
    );
  }
  return <Card title="Personal data">{body}</Card>;
}

export function VerificationDetail({
  verificationId,
  providers,
}: {
  verificationId: string;
  providers: TProviderOption[];
}) {
  const { env } = useConsole();
  const query = useActivity(verificationId);
  const providerName = useMemo(() => providerNamer(providers), [providers]);
  // the cancel button goes when the session ends (cancelled here, or by itself while open)
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading, query.data?.verification.status);
  const back = (
    <Link
      href={`/console/${env}/verifications`}
      className="inline-flex items-center gap-1 text-sm font-semibold text-blue-800 underline"
    >
      <ArrowLeft aria-hidden className="h-4 w-4" />
      Verifications
    </Link>
  );
  if (query.isPending)
    return (
      <div className="space-y-2">
        {back}
        <Loading label="Loading the verification" />
      </div>
    );
  if (query.isError && !query.data)
    return (
      <div className="space-y-3">
        {back}
        <h1 className="text-2xl font-semibold">Verification</h1>
        <FormError
          message={
            query.error instanceof ApiRequestError && query.error.status === 404
              ? `There is no verification ${verificationId} in this environment.`
              : errorMessage(query.error)
          }
        />
        <Button variant="secondary" onClick={() => query.refetch()}>
          Try again
        </Button>
      </div>
    );
  const { verification: v } = query.data;
  const open = !isTerminal(v.status);
  return (
    <div className="space-y-6">
      {back}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-3">
            <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold focus:outline-none">
              Verification
            </h1>
            <Badge tone={statusTone(v.status)} className="text-sm">
              {statusLabel(v.status)}
            </Badge>
          </div>
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <code className="font-mono text-sm break-all text-gray-800">{v.verificationId}</code>
            <CopyButton value={v.verificationId} label="Copy ID" />
          </div>
          {open ? <p className="text-sm text-gray-600">Open: this page refreshes by itself.</p> : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <ButtonLink
            variant="secondary"
            href={`/console/${env}/requests?verificationId=${encodeURIComponent(v.verificationId)}`}
          >
            <ListTree aria-hidden className="h-4 w-4" />
            API requests
          </ButtonLink>
          <CancelVerification verification={v} />
        </div>
      </div>
      {query.isError ? <FormError message={`Refreshing failed: ${errorMessage(query.error)}`} /> : null}

      <Card title="Details">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Fact label="Status">
            {statusLabel(v.status)}
            {v.statusReason ? <span className="text-gray-600"> ({v.statusReason})</span> : null}
          </Fact>
          <Fact label="App">
            <Link
              href={`/console/${env}/apps/${v.clientId}`}
              className="font-semibold text-blue-800 underline"
            >
              {v.appName}
            </Link>
          </Fact>
          <Fact label="Provider">
            {providerName(v.providerId)} <span className="text-gray-600">({v.providerId})</span>
          </Fact>
          <Fact label="Flow type">{flowLabel(v.flowType)}</Fact>
          <Fact label="Channel">{v.channel === "oidc" ? "OpenID Connect / hosted page" : "API"}</Fact>
          <Fact label="Level of assurance">{loaLabel(v.loa)}</Fact>
          <Fact label="Created">
            <time dateTime={v.createdAt}>{formatDateTime(v.createdAt)}</time>
          </Fact>
          <Fact label="Expires">
            <time dateTime={v.expiresAt}>{formatDateTime(v.expiresAt)}</time>
          </Fact>
          <Fact label="Verified">
            {v.verifiedAt ? (
              <>
                <time dateTime={v.verifiedAt}>{formatDateTime(v.verifiedAt)}</time>{" "}
                <span className="text-gray-600">
                  (after {formatSeconds(secondsBetween(v.createdAt, v.verifiedAt))})
                </span>
              </>
            ) : (
              "—"
            )}
          </Fact>
          <Fact label="Ended">
            {v.endedAt ? <time dateTime={v.endedAt}>{formatDateTime(v.endedAt)}</time> : "—"}
          </Fact>
          <Fact label="Workflow">
            <code className="font-mono text-xs break-all">{v.workflowId}</code>
          </Fact>
          <Fact label="Redirect URI">
            {v.redirectUri ? <code className="font-mono text-xs break-all">{v.redirectUri}</code> : "—"}
          </Fact>
        </dl>
      </Card>

      <PersonalData verification={v} />

      <Timeline activity={query.data} />
    </div>
  );
}
