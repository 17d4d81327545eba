/**
 * How a console page's title is put together (server metadata and the client's ConsolePageTitle
 * alike): the most specific part first, joined with " · ", the product name last —
 * `Webhooks · Checkout · Sandbox · Identity verification console`. No React, no Next.js here, so
 * that server layouts and client components share it.
 */
import type { TEnv } from "./api";

/** The product name, last in every console title. */
export const PRODUCT_NAME = "Identity verification console";

export const ENV_TITLE: Record<TEnv, string> = { sandbox: "Sandbox", production: "Production" };

/** The title's parts, most specific first; empty and missing parts are left out. */
export function consoleTitle(...parts: (string | null | undefined)[]): string {
  return [...parts, PRODUCT_NAME].filter((p): p is string => !!p && p.trim() !== "").join(" · ");
}
