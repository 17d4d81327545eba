/**
 * A modal dialog on the native <dialog> element: focus moves into it and is kept there, Escape
 * closes it, and focus returns to the opener — the browser does all of it.
 */
"use client";
import { X } from "lucide-react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";
import { FormError } from "./field";

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}

export function Dialog({ open, onClose, title, description, children, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className={cn(
        "m-auto w-[calc(100%-2rem)] max-w-lg rounded-lg border border-gray-200 bg-white p-0 text-gray-900 shadow-xl backdrop:bg-gray-900/50",
        className,
      )}
    >
      {open ? (
        <div className="space-y-4 p-5">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              className="rounded p-1 text-gray-600 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-700"
              aria-label="Close"
            >
              <X aria-hidden className="h-5 w-5" />
            </button>
          </div>
          {description ? (
            <div id={descriptionId} className="text-sm text-gray-700">
              {description}
            </div>
          ) : null}
          {children}
        </div>
      ) : null}
    </dialog>
  );
}

/** A dialog's buttons, right-aligned and wrapping on narrow screens: Cancel first, then `children`. */
export function DialogActions({ onCancel, children }: { onCancel: () => void; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      {children}
    </div>
  );
}

/**
 * The body of a confirmation dialog: the error of the last try (`error`, e.g. a FormError), then
 * Cancel and the action button(s).
 */
export function ConfirmActions({
  error,
  onCancel,
  children,
}: {
  error: ReactNode;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <div className="space-y-3">
      {error}
      <DialogActions onCancel={onCancel}>{children}</DialogActions>
    </div>
  );
}

/**
 * Asks to confirm a destructive action on `subject`, open while there is one: the description,
 * the error of the last try, Cancel, and the danger button that calls `onConfirm(subject)`.
 */
export function ConfirmDialog<T>({
  subject,
  onClose,
  title,
  description,
  error,
  confirmLabel,
  pending,
  onConfirm,
}: {
  subject: T | null;
  onClose: () => void;
  title: string;
  description: ReactNode;
  error: ReactNode;
  confirmLabel: string;
  pending: boolean;
  onConfirm: (subject: T) => void;
}) {
  return (
    <Dialog open={subject !== null} onClose={onClose} title={title} description={description}>
      <ConfirmActions error={error} onCancel={onClose}>
        <Button variant="danger" pending={pending} onClick={() => (subject ? onConfirm(subject) : undefined)}>
          {confirmLabel}
        </Button>
      </ConfirmActions>
    </Dialog>
  );
}

/** The end of a dialog's form: its own error line, then Cancel and the submit button. */
export function SubmitActions({
  error,
  onCancel,
  submitLabel,
  pending,
}: {
  error: string | null;
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
}) {
  return (
    <>
      <FormError message={error} />
      <DialogActions onCancel={onCancel}>
        <Button type="submit" pending={pending}>
          {submitLabel}
        </Button>
      </DialogActions>
    </>
  );
}
