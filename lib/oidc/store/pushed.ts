/**
 * Pushed authorization requests (RFC 9126; provider/par.ts, provider/request-source.ts) on the
 * data layer (lib/db/kysely.ts), every statement prepared (each runs on a request).
 * Rules:
 * - a row is keyed by the SHA-256 (hex) of the request_uri's random part: the database never
 *   holds a usable request_uri;
 * - `params` is the authorization request as /auth will read it (a JSON object of strings);
 * - the use is one conditional update (`used_at` only while null and before `expires_at`), run in
 *   the transaction that creates the sign-in: of two browsers presenting the same request_uri
 *   exactly one starts a session.
 */
import { prepared, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";

export interface TNewPushedRequest {
  id: string;
  appId: string;
  environment: TEnvironment;
  params: Record<string, string>;
  dpopJkt: string | null;
  createdAt: Date;
  expiresAt: Date;
}

const INSERT_PUSHED = prepared(
  "oidc_pushed_request_insert",
  (db, p: Omit<TNewPushedRequest, "params"> & { params: string }) =>
    db.insertInto("oidcPushedRequests").values({
      id: p.id,
      appId: p.appId,
      environment: p.environment,
      // the JSON text, cast by PostgreSQL (a placeholder cannot be serialised here)
      params: p.params,
      dpopJkt: p.dpopJkt,
      createdAt: p.createdAt,
      expiresAt: p.expiresAt,
    }),
);

/** Stores a pushed authorization request. */
export async function insertPushedRequest(db: Db, request: TNewPushedRequest): Promise<void> {
  await INSERT_PUSHED.run(db, { ...request, params: JSON.stringify(request.params) });
}

const READ_PUSHED = prepared("oidc_pushed_request_read", (db, p: { id: string }) =>
  db
    .selectFrom("oidcPushedRequests")
    .select(["id", "appId", "environment", "params", "dpopJkt", "expiresAt", "usedAt"])
    .where("id", "=", p.id),
);

/** The pushed request `id` (used or expired ones too); undefined when there is none. */
export async function readPushedRequest(db: Db, id: string) {
  const [row] = await READ_PUSHED.run(db, { id });
  return row && { ...row, params: row.params as Record<string, unknown> };
}

const USE_PUSHED = prepared("oidc_pushed_request_use", (db, p: { id: string; now: Date }) =>
  db
    .updateTable("oidcPushedRequests")
    .set({ usedAt: p.now })
    .where("id", "=", p.id)
    .where("usedAt", "is", null)
    .where("expiresAt", ">", p.now)
    .returning("id"),
);

/** Marks pushed request `id` used at `now` if it is unused and unexpired: false otherwise. */
export async function markPushedRequestUsed(db: Db, id: string, now: Date): Promise<boolean> {
  return (await USE_PUSHED.run(db, { id, now })).length === 1;
}
