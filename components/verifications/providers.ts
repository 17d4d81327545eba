/**
 * The provider catalog's ids and names, read by the server pages and handed to the client
 * components (the catalog itself stays out of the browser bundle).
 */
import { PROVIDERS } from "@/lib/providers/catalog";
import type { TProviderOption } from "./format";

export function providerOptions(): TProviderOption[] {
  return PROVIDERS.map((p) => ({ id: p.id, name: p.name })).sort((a, b) => a.name.localeCompare(b.name));
}
