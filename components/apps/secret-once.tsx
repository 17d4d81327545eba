import { TriangleAlert } from "lucide-react";
import { useEffect, useRef, type ReactNode, type Ref } from "react";
import { Button } from "@/components/ui/button";
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

/**
 * Focus in a dialog that shows a secret once: `fieldId` when the dialog opens (the dialog's own
 * effect runs first), then the copy button inside the returned ref's element once the secret is
 * `shown` (the button that had focus is gone). Without `fieldId`, only the second.
 */
export function useSecretFocus({
  open,
  fieldId,
  shown,
}: {
  open?: boolean;
  fieldId?: string;
  shown: unknown;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open && fieldId) document.getElementById(fieldId)?.focus();
  }, [open, fieldId]);
  useEffect(() => {
    if (shown) ref.current?.querySelector("button")?.focus();
  }, [shown]);
  return ref;
}

/** A dialog's body once its secret is shown: the secret and its notes (`children`), then Done. */
export function SecretShown({
  ref,
  onDone,
  children,
}: {
  /** useSecretFocus's ref */
  ref?: Ref<HTMLDivElement>;
  onDone: () => void;
  children: ReactNode;
}) {
  return (
    <div className="space-y-4" ref={ref}>
      {children}
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
