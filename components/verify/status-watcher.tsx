"use client";
/**
 * Live status of a hosted session: polls GET /verify/{id}/status every 1.5 s and announces
 * changes in a polite live region; once the session has ended it sends the browser to the
 * integrator (the `next` address) or reloads to show the final page.
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

export function StatusWatcher({ verificationId, initialStatus, label, texts, redirecting }: Props) {
  const [status, setStatus] = useState(initialStatus);
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function poll() {
      try {
        const response = await fetch(`/verify/${verificationId}/status`, { cache: "no-store" });
        if (response.ok) {
          const body = (await response.json()) as { status: string; next?: string };
          if (stopped) return;
          setStatus(body.status);
          if (TERMINAL.has(body.status)) {
            stopped = true;
            setLeaving(true);
            if (body.next) window.location.assign(body.next);
            else window.location.reload();
            return;
          }
        }
      } catch {
        // a dropped connection: try again at the next tick
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    }
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [verificationId]);

  return (
    <div className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-950">
      <span className="font-semibold">{label}: </span>
      <span role="status" aria-live="polite" aria-atomic="true" data-testid="status" data-status={status}>
        {leaving ? redirecting : (texts[status] ?? status)}
      </span>
    </div>
  );
}
