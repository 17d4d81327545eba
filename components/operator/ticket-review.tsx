"use client";
/**
 * One activation ticket under review: the submitted values beside the provider's requirements,
 * the app's company information, earlier tickets of the same app and provider, and the actions
 * its status allows. Keyboard: s start review, a approve, r reject (focuses the reason;
 * Ctrl+Enter sends it), j / k next / previous ticket of the queue the page was opened from.
 * When another operator moved the ticket first (409 ACTIVATION_STATE_CONFLICT) the page says so,
 * reloads the ticket's current state and keeps the reason typed so far.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, ArrowRight, Check, Play, X } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { QueryError } from "@/components/console/query-error";
import { Badge, statusTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormError, Textarea } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { Table, TBody, Td, Th } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import type { TTicketJson } from "@/lib/activation/schema";
import { formatTime } from "./format";
import { TicketLink, ticketHref } from "./activation-queue";
import { useOperator } from "./context";
import {
  formatWaiting,
  operatorKeys,
  queueQuery,
  statusLabel,
  useNow,
  useShortcuts,
  type TQueuePage,
  type TTicketDetail,
} from "./queries";
import { ShortcutHints } from "./shortcuts";

type TAction = "review" | "approve" | "reject";
const CONFLICT = "ACTIVATION_STATE_CONFLICT";
const REASON_ID = "reject-reason";
const focusReason = () => document.getElementById(REASON_ID)?.focus();

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

/** The queue's neighbours of a ticket (the queue is ordered by submission time, then id). */
function neighbours(queue: TQueuePage | undefined, ticket: TTicketJson | undefined) {
  if (!queue || !ticket) return { prev: undefined, next: undefined };
  const key = (t: TTicketJson) => `${t.requestedAt}|${t.id}`;
  const mine = key(ticket);
  const before = queue.data.filter((t) => key(t) < mine);
  const after = queue.data.filter((t) => key(t) > mine);
  return { prev: before.at(-1), next: after[0] };
}

export function TicketReview({ ticketId }: { ticketId: string }) {
  const { env } = useOperator();
  const router = useRouter();
  const searchParams = useSearchParams();
  const filters = useMemo(
    () => ({ status: searchParams.get("status") ?? "", providerId: searchParams.get("providerId") ?? "" }),
    [searchParams],
  );
  const queryClient = useQueryClient();
  const toast = useToast();
  const now = useNow();
  const [reason, setReason] = useState("");
  const [conflict, setConflict] = useState<string | null>(null);

  const detail = useQuery({
    queryKey: operatorKeys.ticket(env, ticketId),
    queryFn: () => api<TTicketDetail>(env, `/v1/operator/activations/${ticketId}`),
  });
  const queue = useQuery({
    queryKey: operatorKeys.queue(env, filters, 0),
    queryFn: () => api<TQueuePage>(env, "/v1/operator/activations", { query: queueQuery(filters, 0, 100) }),
  });
  const ticket = detail.data?.ticket;
  const { prev, next } = neighbours(queue.data, ticket);

  const mutation = useMutation({
    mutationFn: (action: TAction) =>
      api<TTicketJson>(env, `/v1/operator/activations/${ticketId}/${action}`, {
        method: "POST",
        body: action === "reject" ? { reason } : undefined,
      }),
    onMutate: () => setConflict(null),
    onSuccess: (moved, action) => {
      if (action === "reject") setReason("");
      toast.show({
        tone: "success",
        message:
          action === "review"
            ? "Review started"
            : action === "approve"
              ? `${moved.providerName} activated for ${moved.appName}`
              : "Rejected; the integrator sees the reason",
      });
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.code === CONFLICT) {
        setConflict(error.message);
      }
    },
    // not awaited: the mutation (and with it `busy`, which disables the keys and the reason) ends
    // when the ticket's new status shows, not when the queue has been refetched
    onSettled: () => void queryClient.invalidateQueries({ queryKey: operatorKeys.activations(env) }),
  });
  const apiError = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const reasonError =
    mutation.variables === "reject" && apiError?.code !== CONFLICT
      ? apiError?.fieldError("reason")
      : undefined;
  const status = ticket?.status;
  const busy = mutation.isPending;
  const canReview = status === "activation_requested" && !busy;
  const canDecide = status === "activation_processing" && !busy;

  const rejectNow = () => {
    if (!reason.trim()) {
      focusReason();
      return;
    }
    mutation.mutate("reject");
  };
  const shortcuts = useMemo(
    () => ({
      s: canReview ? () => mutation.mutate("review") : undefined,
      a: canDecide ? () => mutation.mutate("approve") : undefined,
      r: canDecide ? focusReason : undefined,
      j: next ? () => router.push(ticketHref(env, next.id, filters)) : undefined,
      k: prev ? () => router.push(ticketHref(env, prev.id, filters)) : undefined,
    }),
    [canReview, canDecide, mutation, next, prev, router, env, filters],
  );
  useShortcuts(shortcuts);

  const backHref = `/operator/${env}/activations${searchParams.toString() ? `?${searchParams}` : ""}`;
  if (detail.isPending) return <Loading label="Loading the ticket" />;
  if (detail.isError && !detail.data) {
    return (
      <div className="space-y-4">
        <Link href={backHref} className="text-sm font-semibold text-blue-800 underline">
          Back to the queue
        </Link>
        <QueryError error={detail.error} onRetry={() => detail.refetch()} />
      </div>
    );
  }
  const { app, requirements, history } = detail.data!;
  const t = ticket!;
  const companyEntries = Object.entries(app.companyInfo);
  const labelOf = (id: string) => requirements.find((r) => r.id === id)?.label ?? id;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link href={backHref} className="text-sm font-semibold text-blue-800 underline">
          Back to the queue
        </Link>
        <div className="flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            icon={<ArrowLeft aria-hidden className="h-4 w-4" />}
            disabled={!prev}
            onClick={() => prev && router.push(ticketHref(env, prev.id, filters))}
          >
            Previous ticket
          </Button>
          <Button
            variant="secondary"
            size="sm"
            icon={<ArrowRight aria-hidden className="h-4 w-4" />}
            disabled={!next}
            onClick={() => next && router.push(ticketHref(env, next.id, filters))}
          >
            Next ticket
          </Button>
        </div>
      </div>

      <div className="space-y-1">
        <h1 className="text-2xl font-semibold break-words">
          {t.providerName} for {t.appName}
        </h1>
        <div className="flex flex-wrap items-center gap-2 text-sm text-gray-700">
          <Badge tone={statusTone(t.status)}>
            <span data-testid="ticket-status">{statusLabel(t.status)}</span>
          </Badge>
          <span className="font-mono text-xs">{t.id}</span>
        </div>
      </div>

      {conflict ? (
        <div
          role="alert"
          className="rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-950"
          data-testid="ticket-conflict"
        >
          <p className="font-semibold">Another operator moved this ticket first.</p>
          <p>
            {conflict}. The ticket below shows its current state
            {reason.trim() ? "; the reason you wrote is kept" : ""}.
          </p>
        </div>
      ) : null}

      <ShortcutHints
        items={[
          { keys: ["s"], label: "Start review" },
          { keys: ["a"], label: "Approve" },
          { keys: ["r"], label: "Reject (write the reason, Ctrl+Enter sends)" },
          { keys: ["j", "k"], label: "next / previous ticket" },
        ]}
      />

      <Card title="Decision">
        <div className="space-y-4">
          {t.status === "activation_requested" ? (
            <div className="space-y-2">
              <p className="text-sm text-gray-700">Start the review to approve or reject this request.</p>
              <Button
                icon={<Play aria-hidden className="h-4 w-4" />}
                pending={busy && mutation.variables === "review"}
                disabled={!canReview}
                onClick={() => mutation.mutate("review")}
              >
                Start review
              </Button>
            </div>
          ) : null}
          {t.status === "activation_processing" ? (
            <form
              className="space-y-3"
              onSubmit={(e) => {
                e.preventDefault();
                rejectNow();
              }}
            >
              <Textarea
                id={REASON_ID}
                label="Reason"
                description="Required to reject; the integrator sees it in the console and the API."
                rows={3}
                maxLength={500}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                    e.preventDefault();
                    rejectNow();
                  }
                }}
                error={reasonError}
              />
              <div className="flex flex-wrap gap-2">
                <Button
                  type="button"
                  icon={<Check aria-hidden className="h-4 w-4" />}
                  pending={busy && mutation.variables === "approve"}
                  disabled={!canDecide}
                  onClick={() => mutation.mutate("approve")}
                >
                  Approve
                </Button>
                <Button
                  type="submit"
                  variant="danger"
                  icon={<X aria-hidden className="h-4 w-4" />}
                  pending={busy && mutation.variables === "reject"}
                  disabled={!canDecide || !reason.trim()}
                >
                  Reject
                </Button>
              </div>
            </form>
          ) : null}
          {t.status === "activated" ? (
            <p className="text-sm text-gray-800">
              Activated {formatTime(t.activatedAt)}: the provider is enabled for the app.
            </p>
          ) : null}
          {t.status === "rejected" ? (
            <div className="text-sm text-gray-800">
              <p>Rejected {formatTime(t.rejectedAt)}. The integrator can resubmit.</p>
              <p>
                <span className="font-semibold">Reason: </span>
                <span data-testid="ticket-rejection-reason">{t.rejectionReason}</span>
              </p>
            </div>
          ) : null}
          <FormError
            message={mutation.error && !conflict && !reasonError ? errorMessage(mutation.error) : null}
          />
        </div>
      </Card>

      <Card title="Request">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {[
            ["Workspace", `${t.workspaceName} (${t.workspaceId})`],
            ["App", `${t.appName} (${t.clientId})`],
            ["Provider", `${t.providerName} (${t.providerId})`],
            ["Kind", t.activationKind],
            ["Submitted", formatTime(t.requestedAt)],
            ["Waiting", t.status === "activation_requested" ? formatWaiting(t.requestedAt, now) : "—"],
            ["Review started", formatTime(t.reviewStartedAt)],
            ["Reviewer", t.reviewerUserId ?? "—"],
          ].map(([k, v]) => (
            <div key={k} className="min-w-0">
              <dt className="font-medium text-gray-700">{k}</dt>
              <dd className="break-words text-gray-900">{v}</dd>
            </div>
          ))}
        </dl>
      </Card>

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Submitted values</h2>
        {requirements.length === 0 ? (
          <p className="text-sm text-gray-700">This provider has no requirements.</p>
        ) : (
          <Table caption="Submitted values beside the provider's requirements">
            <thead>
              <tr>
                <Th>Requirement</Th>
                <Th>Submitted</Th>
              </tr>
            </thead>
            <TBody>
              {requirements.map((r) => (
                <tr key={r.id}>
                  <Td>
                    <div className="font-medium">{r.label}</div>
                    <div className="text-xs text-gray-700">{r.description}</div>
                    {r.type === "info" ? <div className="text-xs text-gray-700">{r.value}</div> : null}
                    {r.pattern ? (
                      <div className="font-mono text-xs text-gray-700">pattern {r.pattern}</div>
                    ) : null}
                    {r.options ? (
                      <div className="text-xs text-gray-700">
                        options: {r.options.map((o) => o.value).join(", ")}
                      </div>
                    ) : null}
                  </Td>
                  <Td className="break-words">
                    {r.type === "url" && typeof r.submittedValue === "string" ? (
                      <a
                        href={r.submittedValue}
                        target="_blank"
                        rel="noreferrer noopener"
                        className="text-blue-800 underline"
                      >
                        {r.submittedValue}
                      </a>
                    ) : (
                      formatValue(r.submittedValue)
                    )}
                  </Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </section>

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Company information</h2>
        {companyEntries.length === 0 ? (
          <p className="text-sm text-gray-700">The app has not submitted company information.</p>
        ) : (
          <dl className="grid gap-x-6 gap-y-2 rounded-lg border border-gray-200 bg-white p-4 text-sm sm:grid-cols-2">
            {companyEntries.map(([k, v]) => (
              <div key={k} className="min-w-0">
                <dt className="font-medium text-gray-700">{labelOf(k)}</dt>
                <dd className="break-words">{formatValue(v)}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Earlier tickets of this app and provider</h2>
        {history.length === 0 ? (
          <p className="text-sm text-gray-700">None: this is the first request.</p>
        ) : (
          <Table caption="Earlier tickets of this app and provider">
            <thead>
              <tr>
                <Th>Ticket</Th>
                <Th>Status</Th>
                <Th>Submitted</Th>
                <Th>Rejection reason</Th>
              </tr>
            </thead>
            <TBody>
              {history.map((h) => (
                <tr key={h.id}>
                  <Td>
                    <TicketLink ticketId={h.id} filters={filters} />
                  </Td>
                  <Td>
                    <Badge tone={statusTone(h.status)}>{statusLabel(h.status)}</Badge>
                  </Td>
                  <Td className="whitespace-nowrap">{formatTime(h.requestedAt)}</Td>
                  <Td className="break-words">{h.rejectionReason ?? "—"}</Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </section>
    </div>
  );
}
