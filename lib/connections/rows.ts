/**
 * Reading a stored `provider_connections` row: its adapter (a clear error for a value outside the
 * list), its settings (a JSON object), its unsealed secrets and its state. A leaf of
 * lib/connections (schema only), so the runtime cache, the check and the health code read rows
 * without importing the Operator API's use cases (service.ts), which fail sessions through
 * lib/verifications.
 */
import { decryptSecret } from "../crypto/encryption";
import type { ProviderConnection } from "../db/rows";
import { memberParser } from "../state-machine";
import { CONNECTION_ADAPTERS, type TConnectionState } from "./schema";

export const parseConnectionAdapter = memberParser(CONNECTION_ADAPTERS, "provider_connections.adapter");

export function unsealSecrets(row: Pick<ProviderConnection, "secretsEncrypted">): Record<string, string> {
  return row.secretsEncrypted
    ? (JSON.parse(decryptSecret(row.secretsEncrypted)) as Record<string, string>)
    : {};
}

/**
 * The stored settings (a json column): a JSON object; null reads as none ({}). Anything else is
 * a corrupt row, a clear error naming the column.
 */
export function settingsObject(settings: unknown): Record<string, unknown> {
  if (settings === null || settings === undefined) return {};
  if (typeof settings !== "object" || Array.isArray(settings))
    throw new Error("Stored provider_connections.settings is not a JSON object");
  return Object.fromEntries(Object.entries(settings));
}

export function connectionState(
  row: Pick<ProviderConnection, "enabled" | "lastErrorAt" | "lastSuccessAt"> | null,
): TConnectionState {
  if (!row) return "not_connected";
  if (!row.enabled) return "disabled";
  if (row.lastErrorAt && (!row.lastSuccessAt || row.lastErrorAt > row.lastSuccessAt)) return "failing";
  return "connected";
}
