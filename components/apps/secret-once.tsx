import { TriangleAlert } from "lucide-react";
import { CopyField } from "@/components/ui/copy-button";

/** A secret shown once, with a copy button and the warning that it will not be shown again. */
export function SecretOnce({
  label,
  value,
  explanation,
}: {
  label: string;
  value: string;
  explanation: string;
}) {
  return (
    <div className="space-y-3">
      <p
        className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        role="note"
      >
        <TriangleAlert aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        <span>Copy it now: it is shown only this once and cannot be retrieved later. {explanation}</span>
      </p>
      <CopyField label={label} value={value} copyLabel={`Copy ${label.toLowerCase()}`} />
    </div>
  );
}
