"use client";
import { Button } from "./button";

/** Previous / next over an offset-paginated list ({total, limit, offset, hasMore}). */
export function Pagination({
  total,
  limit,
  offset,
  onChange,
  label = "Pagination",
}: {
  total: number;
  limit: number;
  offset: number;
  onChange: (offset: number) => void;
  label?: string;
}) {
  if (total <= limit && offset === 0) return null;
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + limit, total);
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2 text-sm text-gray-700">
      <span>
        {from}–{to} of {total}
      </span>
      <span className="flex gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={offset === 0}
          onClick={() => onChange(Math.max(0, offset - limit))}
        >
          Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={offset + limit >= total}
          onClick={() => onChange(offset + limit)}
        >
          Next
        </Button>
      </span>
    </nav>
  );
}
