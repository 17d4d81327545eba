/** How the back office shows a point in time: "4 Mar 2026, 05:06" (the browser's time zone), or "—". */
export function formatTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : "—";
}
