/**
 * A data table that scrolls sideways on narrow screens instead of breaking the page layout.
 * `caption` names the table for screen readers (visually hidden unless `showCaption`).
 */
import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";
import { Pagination } from "./pagination";

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

/** The header of a row-actions column, named for screen readers only. */
export function ActionsTh() {
  return (
    <Th className="relative">
      <span className="sr-only">Actions</span>
    </Th>
  );
}

/**
 * One page of an offset-paginated list as a table: the `head` cells, a row per item (`row` keys
 * it), an optional `lastRow` (e.g. "no match"), and the page links below.
 */
export function PagedTable<T>({
  caption,
  head,
  page,
  row,
  lastRow,
  limit,
  offset,
  onPage,
  pagesLabel,
}: {
  caption: string;
  head: ReactNode;
  page: { data: T[]; total: number };
  row: (item: T) => ReactNode;
  lastRow?: ReactNode;
  limit: number;
  offset: number;
  onPage: (offset: number) => void;
  /** the page links' accessible name */
  pagesLabel: string;
}) {
  return (
    <>
      <Table caption={caption}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <TBody>
          {page.data.map(row)}
          {lastRow}
        </TBody>
      </Table>
      <Pagination total={page.total} limit={limit} offset={offset} onChange={onPage} label={pagesLabel} />
    </>
  );
}
