/** Offset pagination shared by every list endpoint (docs/design.md §5): limit 1–100, offset ≥ 0. */
import { z } from "zod";

export function paginationFields(defaultLimit = 20) {
  return {
    limit: z.coerce
      .number({ error: "must be a number" })
      .int("must be an integer")
      .min(1, "must be at least 1")
      .max(100, "must be at most 100")
      .default(defaultLimit),
    offset: z.coerce
      .number({ error: "must be a number" })
      .int("must be an integer")
      .min(0, "must be at least 0")
      .default(0),
  };
}

/** The response schema of a list endpoint: one page of `item` with the totals `page()` fills in. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean(),
  });
}

export interface TPage<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

export function page<T>(data: T[], total: number, limit: number, offset: number): TPage<T> {
  return { data, total, limit, offset, hasMore: offset + data.length < total };
}
