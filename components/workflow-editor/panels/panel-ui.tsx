"use client";
/** Small pieces the three side panels share: section headings, outcome badges, paths, API errors. */
import type { ReactNode } from "react";
import { ApiRequestError, errorMessage } from "@/components/console/api";
import { Badge } from "@/components/ui/badge";
import { FormError } from "@/components/ui/field";
import type { TOutcome } from "./queries";

export function PanelSection({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <section
      aria-label={title}
      className="space-y-3 border-t border-gray-200 pt-4 first:border-t-0 first:pt-0"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-gray-900">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

export function OutcomeBadge({ outcome, reasonCode }: { outcome: TOutcome; reasonCode?: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge tone={outcome === "completed" ? "green" : "red"}>
        {outcome === "completed" ? "Completed" : "Failed"}
      </Badge>
      {reasonCode ? <code className="text-xs break-all text-gray-800">{reasonCode}</code> : null}
    </span>
  );
}

/** A path of node ids as "a → b → c", read as a list by screen readers. */
export function PathList({ path, label }: { path: readonly string[]; label: string }) {
  if (path.length === 0) return <span className="text-sm text-gray-600">no nodes</span>;
  return (
    <ol aria-label={label} className="flex flex-wrap items-center gap-x-1 gap-y-0.5 text-xs text-gray-900">
      {path.map((id, i) => (
        <li key={`${id}-${i}`} className="inline-flex items-center gap-1">
          {i > 0 ? (
            <span aria-hidden className="text-gray-500">
              →
            </span>
          ) : null}
          <code className="rounded bg-gray-100 px-1 break-all">{id}</code>
        </li>
      ))}
    </ol>
  );
}

/**
 * An API error of a panel action: the message, and the details that name no field shown as a
 * list (a draft's validation messages, e.g. `nodes[2].config.minLoa`). `fields` are paths shown
 * on their own controls, so they are left out here.
 */
export function ActionError({ error, fields = [] }: { error: unknown; fields?: string[] }) {
  if (!error) return null;
  if (!(error instanceof ApiRequestError)) return <FormError message={errorMessage(error)} />;
  const onField = (path: string) =>
    fields.some((f) => path === f || path.startsWith(`${f}.`) || path.startsWith(`${f}[`));
  const rest = error.details.filter((d) => !onField(d.path));
  if (error.details.length > 0 && rest.length === 0) return null;
  return (
    <div
      role="alert"
      className="space-y-1 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      <p>{errorMessage(error)}</p>
      {rest.length > 0 ? (
        <ul className="list-disc space-y-0.5 pl-5">
          {rest.map((d, i) => (
            <li key={`${d.path}-${i}`}>
              <code className="text-xs break-all">{d.path}</code>: {d.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** An amber note: the result shown belongs to an earlier draft. */
export function StaleNote({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      {children}
    </p>
  );
}
