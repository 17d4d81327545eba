/**
 * Form fields with a visible label, optional description and error text, wired with
 * aria-describedby / aria-invalid so assistive technology reads them with the control.
 */
"use client";
import {
  useId,
  type FormHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { cn } from "./cn";

interface FieldShellProps {
  id: string;
  label: ReactNode;
  description?: ReactNode;
  error?: string;
  required?: boolean;
  children: ReactNode;
  className?: string;
}

function FieldShell({ id, label, description, error, required, children, className }: FieldShellProps) {
  return (
    <div className={cn("space-y-1", className)}>
      <div className="flex items-baseline gap-0.5">
        <label htmlFor={id} className="block text-sm font-medium text-gray-900">
          {label}
        </label>
        {required ? (
          <span className="text-sm text-red-700" aria-hidden>
            *
          </span>
        ) : null}
      </div>
      {children}
      <FieldNotes id={id} description={description} error={error} />
    </div>
  );
}

/** The description and error paragraphs below a control, with the ids `describedBy` names. */
function FieldNotes({
  id,
  description,
  error,
  indent,
}: {
  id: string;
  description?: ReactNode;
  error?: string;
  indent?: string;
}) {
  return (
    <>
      {description ? (
        <p id={`${id}-description`} className={cn(indent, "text-sm text-gray-600")}>
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={cn(indent, "text-sm font-medium text-red-700")} role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

const CONTROL =
  "block w-full rounded-md border bg-white px-3 py-2 text-sm text-gray-900 shadow-sm placeholder:text-gray-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 disabled:bg-gray-100";

function describedBy(id: string, description: unknown, error: unknown): string | undefined {
  const ids = [description ? `${id}-description` : "", error ? `${id}-error` : ""].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

type Common = { label: ReactNode; description?: ReactNode; error?: string; fieldClassName?: string };
type TControlOwn = Common & { id?: string; className?: string; required?: boolean };

/**
 * Splits a labelled control's props into the shell's (label, notes, required mark) and the
 * control's: its id (given or generated), the aria wiring, the border for the error state, and
 * every other prop passed through last, as given.
 */
function useLabelledControl<P extends TControlOwn>({
  label,
  description,
  error,
  fieldClassName,
  id,
  className,
  required,
  ...rest
}: P) {
  const auto = useId();
  const fieldId = id ?? auto;
  return {
    shell: { id: fieldId, label, description, error, required, className: fieldClassName },
    control: {
      id: fieldId,
      required,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": describedBy(fieldId, description, error),
      className: cn(CONTROL, error ? "border-red-600" : "border-gray-400", className),
      ...rest,
    },
  };
}

export function Input(props: Common & InputHTMLAttributes<HTMLInputElement>) {
  const { shell, control } = useLabelledControl(props);
  return (
    <FieldShell {...shell}>
      <input {...control} />
    </FieldShell>
  );
}

export function Textarea(props: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { shell, control } = useLabelledControl(props);
  return (
    <FieldShell {...shell}>
      <textarea {...control} />
    </FieldShell>
  );
}

export function Select({ children, ...props }: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const { shell, control } = useLabelledControl(props);
  return (
    <FieldShell {...shell}>
      <select {...control}>{children}</select>
    </FieldShell>
  );
}

export function Checkbox({
  label,
  description,
  error,
  id,
  className,
  ...rest
}: Common & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className={cn("space-y-1", className)}>
      <div className="flex items-start gap-2">
        <input
          id={fieldId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(fieldId, description, error)}
          className="mt-0.5 h-4 w-4 rounded border-gray-400 accent-blue-700 focus-visible:outline-2 focus-visible:outline-blue-700"
          {...rest}
        />
        <label htmlFor={fieldId} className="text-sm font-medium text-gray-900">
          {label}
        </label>
      </div>
      <FieldNotes id={fieldId} description={description} error={error} indent="ml-6" />
    </div>
  );
}

/** A form whose submit calls `onSubmit` instead of loading a page. */
export function Form({
  onSubmit,
  ...rest
}: Omit<FormHTMLAttributes<HTMLFormElement>, "onSubmit"> & { onSubmit: () => void }) {
  return (
    <form
      {...rest}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    />
  );
}

/** A form-level error (the API's message when it names no field). */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}
