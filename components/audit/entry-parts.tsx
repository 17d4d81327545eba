"use client";
/**
 * What the workspace Audit log and the operator audit view show alike: the Action filter (an
 * exact action or a `prefix.*`) and an entry's target (its type, and its ID linked to the page
 * the viewer has for it, if any).
 */
import Link from "next/link";
import type { ComponentProps } from "react";
import { CodeFilter } from "@/components/logs/filters";
import { cn } from "@/components/ui/cn";
import { humanize } from "@/components/verifications/format";

/** The Action filter; `placeholder` shows an action of the log and its prefix. */
export function ActionFilter(
  props: { placeholder: string } & Omit<ComponentProps<typeof CodeFilter>, "label" | "description">,
) {
  return <CodeFilter label="Action" description="Exact, or a prefix ending in *" {...props} />;
}

export function AuditTarget({
  type,
  id,
  href,
  typeClassName,
}: {
  type: string | null;
  id: string | null;
  /** the target's page, where the viewer has one */
  href: string | undefined;
  /** the colour of the type line */
  typeClassName: string;
}) {
  if (!type && !id) return <>—</>;
  return (
    <div className="space-y-0.5">
      {type ? <div className={cn("text-xs", typeClassName)}>{humanize(type)}</div> : null}
      {id ? (
        href ? (
          <Link href={href} className="font-mono text-xs break-all text-blue-800 underline">
            {id}
          </Link>
        ) : (
          <code className="font-mono text-xs break-all">{id}</code>
        )
      ) : null}
    </div>
  );
}
