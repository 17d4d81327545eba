"use client";
/**
 * Live status of a hosted session: polls GET /verify/{id}/status every 1.5 s (from the start: the
 * page may be older than the session's state) until the session has ended, and announces changes
 * in a polite live region; once the session has ended it sends the browser to the integrator (the
 * `next` address) or reloads to show the final page. A dropped connection is retried at the next
 * tick. A plain fetch and a timer rather than TanStack Query: this is the hosted page's only
 * request, and its first-load JavaScript has a budget (docs/decisions.md, issue 15).
 */
import { useEffect, useState } from "react";

const TERMINAL = new Set(["completed", "failed", "cancelled", "expired"]);
const POLL_MS = 1500;

interface Props {
  verificationId: string;
  initialStatus: string;
  label: string;
  /** the status sentences, already in the page's language */
  texts: Record<string, string>;
  redirecting: string;
}

interface TStatus {
  status: string;
  next?: string;
}

async function fetchStatus(verificationId: string): Promise<TStatus | undefined> {
  try {
    const response = await fetch(`/verify/${verificationId}/status`, { cache: "no-store" });
    return response.ok ? ((await response.json()) as TStatus) : undefined;
  } catch {
    return undefined;
  }
}

export function StatusWatcher({ verificationId, initialStatus, label, texts, redirecting }: Props) {
  const [data, setData] = useState<TStatus>({ status: initialStatus });

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      void fetchStatus(verificationId).then((next) => {
        if (stopped) return;
        if (next) setData(next);
        if (!next || !TERMINAL.has(next.status)) timer = setTimeout(tick, POLL_MS);
      });
    };
    tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [verificationId]);

  const status = data.status;
  const leaving = TERMINAL.has(status) && status !== initialStatus;

  useEffect(() => {
    if (!leaving) return;
    if (data.next) window.location.assign(data.next);
    else window.location.reload();
  }, [leaving, data.next]);

  return (
    <div className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-950">
      <span className="font-semibold">{label}: </span>
      <span role="status" aria-live="polite" aria-atomic="true" data-testid="status" data-status={status}>
        {leaving ? redirecting : (texts[status] ?? status)}
      </span>
    </div>
  );
}
