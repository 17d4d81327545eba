"use client";
/**
 * A value in a log row that narrows the list to it when pressed (an actor's ID, an action):
 * shown as a link-styled monospace value, with what pressing it does for screen readers.
 */
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

export function FilterByButton({
  onClick,
  hint,
  className,
  children,
}: {
  onClick: () => void;
  /** what pressing it does, e.g. "show only this action" */
  hint: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={cn(
        "text-left font-mono break-all text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700",
        className,
      )}
      onClick={onClick}
      title={hint.charAt(0).toUpperCase() + hint.slice(1)}
    >
      {children}
      <span className="sr-only"> ({hint})</span>
    </button>
  );
}
