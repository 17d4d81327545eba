/** zod issues become `details` that each name a field, even an unknown key that is empty. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodDetails } from "./validation";

describe("zodDetails", () => {
  it('names unknown keys under their parent, an empty one as ""', () => {
    const schema = z.object({ settings: z.object({ issuer: z.string() }).strict() }).strict();
    const result = schema.safeParse({ "": 1, settings: { issuer: "x", "": 2, extra: 3 } });
    expect(result.success).toBe(false);
    const details = zodDetails(result.error!, "body");
    expect(details).toEqual(
      expect.arrayContaining([
        { path: 'body.""', message: "Unknown field" },
        { path: 'body.settings.""', message: "Unknown field" },
        { path: "body.settings.extra", message: "Unknown field" },
      ]),
    );
    expect(zodDetails(z.object({}).strict().safeParse({ "": 1 }).error!)).toEqual([
      { path: '""', message: "Unknown field" },
    ]);
  });
});
