"use client";
/**
 * The two decisions on a pending production-test request, shared by the list (in a dialog) and
 * the request's page. Schedule builds the schedule endpoint's body (end date, description,
 * sponsor and sources as JSON) and says what the challenge will be; Fail needs a reason, which the
 * integrator reads. The API's field errors land on their fields; a request another operator
 * decided first (PRODUCTION_TEST_NOT_PENDING) is handed to the page (`onConflict`), which says so
 * and shows the request's current state.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CalendarCheck, X } from "lucide-react";
import { useState } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import { FormError, Input, Textarea } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { useOperator } from "../context";
import {
  DEFAULT_CHALLENGE_DAYS,
  DESCRIPTION_MAX,
  EMPTY_SCHEDULE,
  FAILURE_REASON_MAX,
  isNotPending,
  localDateTime,
  MAX_CHALLENGE_DAYS,
  MAX_SOURCES,
  productionTestOperatorKeys,
  requestPath,
  scheduleBody,
  type TOperatorItem,
  type TRequestDetail,
  type TScheduleDraft,
} from "./queries";

interface DecisionProps {
  item: TOperatorItem;
  /** after the request moved (the item is the API's answer) */
  onDone?: (moved: TOperatorItem) => void;
  /** another operator decided first: the API's message */
  onConflict: (message: string) => void;
  /** id prefix, unique on the page */
  idPrefix: string;
}

/**
 * What both forms do once the API answered: the request's page shows the moved request at once
 * (its challenge's figures come with the refetch), and the back-office's production-test queries
 * refetch in the background. Not awaited: the mutation, and with it the button's pending state,
 * ends with the API's answer, not with the refetch.
 */
function useDecisionCache() {
  const { env } = useOperator();
  const queryClient = useQueryClient();
  return {
    show: (moved: TOperatorItem) =>
      queryClient.setQueriesData<TRequestDetail>(
        { queryKey: [...productionTestOperatorKeys.all(env), "detail", moved.request.id] },
        (shown) => (shown ? { ...shown, ...moved } : shown),
      ),
    refresh: () => void queryClient.invalidateQueries({ queryKey: productionTestOperatorKeys.all(env) }),
  };
}

/** A conflict notice: the request was decided by someone else while this page showed it pending. */
export function ConflictNotice({ message, onDismiss }: { message: string; onDismiss?: () => void }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-950"
      data-testid="production-test-conflict"
    >
      <p className="font-semibold">Another operator decided this request first.</p>
      <p>{message}. The request shows its current state; nothing was changed.</p>
      {onDismiss ? (
        <Button variant="ghost" size="sm" className="mt-1" onClick={onDismiss}>
          Dismiss
        </Button>
      ) : null}
    </div>
  );
}

export function ScheduleForm({ item, onDone, onConflict, idPrefix }: DecisionProps) {
  const { env } = useOperator();
  const cache = useDecisionCache();
  const toast = useToast();
  const [draft, setDraft] = useState<TScheduleDraft>(EMPTY_SCHEDULE);
  const [localErrors, setLocalErrors] = useState<Partial<Record<keyof TScheduleDraft, string>>>({});
  // the field's bounds, fixed when the form opens (a minute's drift does not matter here)
  const [bounds] = useState(() => ({ min: localDateTime(0), max: localDateTime(MAX_CHALLENGE_DAYS) }));
  const mutation = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api<TOperatorItem>(env, requestPath(item.request.id, "schedule"), { method: "POST", body }),
    onSuccess: (moved) => {
      cache.show(moved);
      setDraft(EMPTY_SCHEDULE);
      toast.show({
        tone: "success",
        message: `Scheduled: challenge ${moved.challenge?.id ?? ""} created for ${moved.app.name}`,
      });
      onDone?.(moved);
    },
    onError: (error) => {
      if (isNotPending(error)) onConflict((error as Error).message);
    },
    onSettled: cache.refresh,
  });
  const apiError =
    mutation.error instanceof ApiRequestError && !isNotPending(mutation.error) ? mutation.error : undefined;
  const fieldError = (name: keyof TScheduleDraft) => localErrors[name] ?? apiError?.fieldError(name);
  const fieldNames = ["expiresAt", "description", "sponsor", "sources"] as const;
  const formError =
    mutation.error && !isNotPending(mutation.error) && !fieldNames.some((f) => apiError?.fieldError(f))
      ? errorMessage(mutation.error)
      : null;
  const set = (key: keyof TScheduleDraft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const { payload } = item.request;

  return (
    <form
      className="space-y-3"
      aria-label={`Schedule ${payload.title}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const built = scheduleBody(draft);
        if (!built.ok) {
          setLocalErrors(built.errors);
          return;
        }
        setLocalErrors({});
        mutation.mutate(built.body);
      }}
    >
      <p className="text-sm text-gray-800" data-testid="schedule-creates">
        Creates one challenge (stamp mode) titled <span className="font-semibold">“{payload.title}”</span>{" "}
        that runs until {payload.maxStampClaims.toLocaleString("en")}{" "}
        {payload.maxStampClaims === 1 ? "stamp is" : "stamps are"} claimed or it ends. The integrator sees it
        at once.
      </p>
      <Input
        id={`${idPrefix}-expires`}
        label="Ends"
        type="datetime-local"
        min={bounds.min}
        max={bounds.max}
        value={draft.expiresAt}
        onChange={(e) => set("expiresAt")(e.target.value)}
        description={`Your local time. Leave empty for ${DEFAULT_CHALLENGE_DAYS} days from now; at most ${MAX_CHALLENGE_DAYS} days ahead.`}
        error={fieldError("expiresAt")}
      />
      <Textarea
        id={`${idPrefix}-description`}
        label="Description"
        rows={3}
        maxLength={DESCRIPTION_MAX}
        value={draft.description}
        onChange={(e) => set("description")(e.target.value)}
        description="Optional; shown with the challenge."
        error={fieldError("description")}
      />
      <Textarea
        id={`${idPrefix}-sponsor`}
        label="Sponsor (JSON)"
        rows={2}
        className="font-mono"
        value={draft.sponsor}
        onChange={(e) => set("sponsor")(e.target.value)}
        description='Optional, any JSON value, e.g. {"name": "Example Bank"}.'
        error={fieldError("sponsor")}
      />
      <Textarea
        id={`${idPrefix}-sources`}
        label="Sources (JSON array)"
        rows={2}
        className="font-mono"
        value={draft.sources}
        onChange={(e) => set("sources")(e.target.value)}
        description={`Optional, at most ${MAX_SOURCES} entries, e.g. ["newsletter", "app store"].`}
        error={fieldError("sources")}
      />
      <FormError message={formError} />
      <Button
        type="submit"
        icon={<CalendarCheck aria-hidden className="h-4 w-4" />}
        pending={mutation.isPending}
      >
        Schedule
      </Button>
    </form>
  );
}

export function FailForm({ item, onDone, onConflict, idPrefix }: DecisionProps) {
  const { env } = useOperator();
  const cache = useDecisionCache();
  const toast = useToast();
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const mutation = useMutation({
    mutationFn: () =>
      api<TOperatorItem>(env, requestPath(item.request.id, "fail"), { method: "POST", body: { reason } }),
    onSuccess: (moved) => {
      cache.show(moved);
      setReason("");
      toast.show({ tone: "success", message: "Failed; the integrator sees the reason" });
      onDone?.(moved);
    },
    onError: (error) => {
      if (isNotPending(error)) onConflict((error as Error).message);
    },
    onSettled: cache.refresh,
  });
  const apiError =
    mutation.error instanceof ApiRequestError && !isNotPending(mutation.error) ? mutation.error : undefined;
  const reasonError = missing ? "Required: the integrator reads it" : apiError?.fieldError("reason");
  const formError =
    mutation.error && !isNotPending(mutation.error) && !apiError?.fieldError("reason")
      ? errorMessage(mutation.error)
      : null;
  return (
    <form
      className="space-y-3"
      aria-label={`Fail ${item.request.payload.title}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!reason.trim()) {
          setMissing(true);
          document.getElementById(`${idPrefix}-reason`)?.focus();
          return;
        }
        setMissing(false);
        mutation.mutate();
      }}
    >
      <Textarea
        id={`${idPrefix}-reason`}
        label="Reason"
        required
        rows={3}
        maxLength={FAILURE_REASON_MAX}
        value={reason}
        onChange={(e) => {
          setReason(e.target.value);
          if (e.target.value.trim()) setMissing(false);
        }}
        description="Shown to the integrator in the console and the API."
        error={reasonError}
      />
      <FormError message={formError} />
      <Button
        type="submit"
        variant="danger"
        icon={<X aria-hidden className="h-4 w-4" />}
        pending={mutation.isPending}
      >
        Fail request
      </Button>
    </form>
  );
}
