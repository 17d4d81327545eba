"use client";
/**
 * Live status of a hosted session: polls GET /verify/{id}/status every 1.5 s (TanStack Query) and
 * announces changes in a polite live region; once the session has ended it sends the browser to
 * the integrator (the `next` address) or reloads to show the final page.
 */
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { hostedKeys } from "@/lib/hosted/query-keys";

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

async function fetchStatus(verificationId: string): Promise<TStatus> {
  const response = await fetch(`/verify/${verificationId}/status`, { cache: "no-store" });
  if (!response.ok) throw new Error(`status ${response.status}`);
  return (await response.json()) as TStatus;
}

function Watcher({ verificationId, initialStatus, label, texts, redirecting }: Props) {
  const { data } = useQuery({
    queryKey: hostedKeys.status(verificationId),
    queryFn: () => fetchStatus(verificationId),
    initialData: { status: initialStatus },
    initialDataUpdatedAt: 0,
    // keep asking until the session ends; a dropped connection is retried at the next tick
    refetchInterval: (query) => (TERMINAL.has(query.state.data?.status ?? "") ? false : POLL_MS),
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    retry: false,
  });
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

export function StatusWatcher(props: Props) {
  const [client] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={client}>
      <Watcher {...props} />
    </QueryClientProvider>
  );
}
