/**
 * withApi's Idempotency-Key (lib/idempotency): honoured on idempotent workspace endpoints only.
 * The key is checked (400 when malformed) before anything is claimed; a claim either reserves the
 * key for this request (its record is completed in the handler's transaction, handler.ts) or finds
 * the stored response of an earlier request with the same body, answered again as it was with
 * `Idempotency-Replayed: true`.
 */
import type { WorkspaceAuth } from "../../auth/workspace-keys";
import type { Db } from "../../db/client";
import type { TEnvironment } from "../../environments";
import {
  claimIdempotencyKey,
  hashRequestBody,
  validateIdempotencyKey,
  type IdempotencyClaim,
  type StoredResponse,
} from "../../idempotency";
import type { RawBody } from "../body";
import type { EndpointDef } from "../endpoint";
import { BASE_HEADERS } from "./response";

/** The request's key when the endpoint honours one, else undefined (the header is ignored). */
export function idempotencyKeyOf(def: EndpointDef, request: Request): string | undefined {
  return def.idempotent && def.auth === "workspace"
    ? validateIdempotencyKey(request.headers.get("idempotency-key"))
    : undefined;
}

/** Claims `key` for this request, in the caller's workspace and environment, for this body. */
export function claimKey(
  db: Db,
  key: string,
  auth: WorkspaceAuth,
  env: TEnvironment,
  method: string,
  url: URL,
  raw: RawBody,
): Promise<IdempotencyClaim> {
  return claimIdempotencyKey(db, {
    workspaceId: auth.workspaceId,
    environment: env,
    key,
    method,
    path: url.pathname,
    requestHash: hashRequestBody(raw.json),
  });
}

/** The stored response of the earlier request, answered again. */
export function replayResponse(stored: StoredResponse): Response {
  return new Response(stored.body === "" ? null : stored.body, {
    status: stored.status,
    headers: {
      ...(stored.body === "" ? {} : BASE_HEADERS),
      ...stored.headers,
      "Idempotency-Replayed": "true",
    },
  });
}
