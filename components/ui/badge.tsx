import type { ReactNode } from "react";
import { cn } from "./cn";

export type BadgeTone = "gray" | "green" | "red" | "amber" | "blue" | "purple";

const TONES: Record<BadgeTone, string> = {
  gray: "bg-gray-100 text-gray-800 ring-gray-300",
  green: "bg-green-50 text-green-800 ring-green-300",
  red: "bg-red-50 text-red-800 ring-red-300",
  amber: "bg-amber-50 text-amber-900 ring-amber-300",
  blue: "bg-blue-50 text-blue-800 ring-blue-300",
  purple: "bg-purple-50 text-purple-800 ring-purple-300",
};

export function Badge({
  tone = "gray",
  children,
  className,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}

/** The tone of a verification status. */
export function statusTone(status: string): BadgeTone {
  if (status === "completed" || status === "activated" || status === "active" || status === "succeeded")
    return "green";
  if (status === "failed" || status === "rejected" || status === "dead" || status === "invalid") return "red";
  if (status === "expired" || status === "cancelled") return "amber";
  if (status === "created") return "gray";
  return "blue";
}
