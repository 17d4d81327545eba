import { Loader2 } from "lucide-react";

/** "Loading …" with a spinner; announced politely. */
export function Loading({ label = "Loading" }: { label?: string }) {
  return (
    <p role="status" className="flex items-center gap-2 py-6 text-sm text-gray-700">
      <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
      {label}…
    </p>
  );
}
