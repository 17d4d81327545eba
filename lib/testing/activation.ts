/** Test helpers for provider activation: valid form values from the catalog, operator queues. */
import { findProvider } from "../providers/catalog";
import type { TRequirementValue } from "../providers/requirements";
import { bearer, call } from "./router";

/** A valid submission for `providerId`, built from the catalog's own examples and options. */
export function validValues(
  providerId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const provider = findProvider(providerId);
  if (!provider) throw new Error(`unknown provider ${providerId}`);
  const values: Record<string, TRequirementValue> = {};
  for (const r of provider.activation.requirements) {
    if (r.type === "info") continue;
    if (r.type === "checkbox") values[r.id] = r.options ? [r.options[0]!.value] : true;
    else if (r.type === "select") values[r.id] = r.options[0]!.value;
    else values[r.id] = r.example;
  }
  return { ...values, ...overrides };
}

export interface TicketEntry {
  id: string;
  status: string;
  clientId: string;
  workspaceId: string;
  providerId: string;
  [k: string]: unknown;
}

/** Every ticket of `status` in `env` the operator sees (all pages). */
export async function allOperatorTickets(
  operatorKey: string,
  env: "sandbox" | "production",
  status?: string,
): Promise<TicketEntry[]> {
  const out: TicketEntry[] = [];
  for (let offset = 0; ; offset += 100) {
    const qs = new URLSearchParams({ limit: "100", offset: String(offset), ...(status ? { status } : {}) });
    const res = await call("GET", `/api/${env}/v1/operator/activations?${qs}`, {
      headers: bearer(operatorKey),
    });
    if (res.status !== 200) throw new Error(`listing tickets failed: ${res.status} ${res.text}`);
    out.push(...(res.body.data as TicketEntry[]));
    if (!res.body.hasMore) return out;
  }
}
