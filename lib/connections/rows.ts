/**
 * Reading a stored `provider_connections` row: its adapter (a clear error for a value outside the
 * list), its unsealed secrets and its state. A leaf of lib/connections (schema only), so the
 * runtime cache, the check and the health code read rows without importing the Operator API's
 * use cases (service.ts), which fail sessions through lib/verifications.
 */
import { decryptSecret } from "../crypto/encryption";
import type { ProviderConnection } from "../db/generated/client";
import { memberParser } from "../state-machine";
import { CONNECTION_ADAPTERS, type TConnectionState } from "./schema";

export const parseConnectionAdapter = memberParser(CONNECTION_ADAPTERS, "provider_connections.adapter");

export function unsealSecrets(row: Pick<ProviderConnection, "secretsEncrypted">): Record<string, string> {
  return row.secretsEncrypted
    ? (JSON.parse(decryptSecret(row.secretsEncrypted)) as Record<string, string>)
    : {};
}

export function connectionState(
  row: Pick<ProviderConnection, "enabled" | "lastErrorAt" | "lastSuccessAt"> | null,
): TConnectionState {
  if (!row) return "not_connected";
  if (!row.enabled) return "disabled";
  if (row.lastErrorAt && (!row.lastSuccessAt || row.lastErrorAt > row.lastSuccessAt)) return "failing";
  return "connected";
}
