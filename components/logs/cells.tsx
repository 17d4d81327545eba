/**
 * Cells the log tables (verifications, API requests, the audit logs) share: their column heads,
 * when an entry was made, and the request that made it.
 */
import type { ReactNode } from "react";
import { Td, Th } from "@/components/ui/table";
import { formatDateTime, formatShortDateTime } from "@/components/verifications/format";

/** The entry's time, short, with the full date and time on hover; `children` go below it. */
export function TimeCell({ at, children }: { at: string; children?: ReactNode }) {
  return (
    <Td className="px-3 whitespace-nowrap">
      <time dateTime={at} title={formatDateTime(at)}>
        {formatShortDateTime(at)}
      </time>
      {children}
    </Td>
  );
}

/** A request ID, in full (it is what support asks for), or "—" when the entry has none. */
export function RequestId({ id }: { id: string | null }) {
  return id ? <code className="font-mono text-xs break-all">{id}</code> : <>—</>;
}

/** ListResults' `head` and `columns` of a log table: a header cell per name, log padding. */
export function logColumns(names: readonly string[]) {
  return {
    head: (
      <>
        {names.map((name) => (
          <Th key={name} className="px-3">
            {name}
          </Th>
        ))}
      </>
    ),
    columns: names.length,
  };
}
