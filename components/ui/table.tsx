/**
 * A data table that scrolls sideways on narrow screens instead of breaking the page layout.
 * `caption` names the table for screen readers (visually hidden unless `showCaption`).
 */
import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";

export function Table({
  caption,
  showCaption = false,
  children,
  className,
}: {
  caption: string;
  showCaption?: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div
      // relative: visually hidden (absolute) labels inside cells stay inside the scrolling frame
      className={cn("relative overflow-x-auto rounded-lg border border-gray-200 bg-white", className)}
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
        <caption className={showCaption ? "px-4 py-2 text-left font-semibold" : "sr-only"}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Th({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn(
        "bg-gray-50 px-4 py-2 text-xs font-semibold tracking-wide text-gray-700 uppercase",
        className,
      )}
      {...rest}
    />
  );
}

export function Td({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("px-4 py-2 align-top text-gray-900", className)} {...rest} />;
}

export function TBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-gray-100">{children}</tbody>;
}
