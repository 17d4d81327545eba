/**
 * Form fields with a visible label, optional description and error text, wired with
 * aria-describedby / aria-invalid so assistive technology reads them with the control.
 */
"use client";
import {
  useId,
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
      {description ? (
        <p id={`${id}-description`} className="text-sm text-gray-600">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const CONTROL =
  "block w-full rounded-md border bg-white px-3 py-2 text-sm text-gray-900 shadow-sm placeholder:text-gray-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 disabled:bg-gray-100";

function describedBy(id: string, description: unknown, error: unknown): string | undefined {
  const ids = [description ? `${id}-description` : "", error ? `${id}-error` : ""].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

type Common = { label: ReactNode; description?: ReactNode; error?: string; fieldClassName?: string };

export function Input({
  label,
  description,
  error,
  fieldClassName,
  id,
  className,
  required,
  ...rest
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <FieldShell
      id={fieldId}
      label={label}
      description={description}
      error={error}
      required={required}
      className={fieldClassName}
    >
      <input
        id={fieldId}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, description, error)}
        className={cn(CONTROL, error ? "border-red-600" : "border-gray-400", className)}
        {...rest}
      />
    </FieldShell>
  );
}

export function Textarea({
  label,
  description,
  error,
  fieldClassName,
  id,
  className,
  required,
  ...rest
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <FieldShell
      id={fieldId}
      label={label}
      description={description}
      error={error}
      required={required}
      className={fieldClassName}
    >
      <textarea
        id={fieldId}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, description, error)}
        className={cn(CONTROL, error ? "border-red-600" : "border-gray-400", className)}
        {...rest}
      />
    </FieldShell>
  );
}

export function Select({
  label,
  description,
  error,
  fieldClassName,
  id,
  className,
  required,
  children,
  ...rest
}: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <FieldShell
      id={fieldId}
      label={label}
      description={description}
      error={error}
      required={required}
      className={fieldClassName}
    >
      <select
        id={fieldId}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, description, error)}
        className={cn(CONTROL, error ? "border-red-600" : "border-gray-400", className)}
        {...rest}
      >
        {children}
      </select>
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
      {description ? (
        <p id={`${fieldId}-description`} className="ml-6 text-sm text-gray-600">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={`${fieldId}-error`} className="ml-6 text-sm font-medium text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
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
