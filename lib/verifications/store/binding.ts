/**
 * A session's browser binding and where its bound browser returns (lib/hosted/binding.ts,
 * lib/verifications/return.ts), on the data layer (lib/db/kysely.ts): the session's binding
 * columns, its OpenID Provider request (the hand-off and the resume), the app's return
 * addresses. The reads run on hosted page loads and on a status poll of an ended session:
 * prepared (named).
 * Rules:
 * - the hand-off is consumed and the binding claimed with conditional updates (the row's value
 *   is the condition): of two concurrent browsers, one gets it;
 * - a write of the session row stamps updatedAt.
 */
import { prepared, type Db } from "../../db/kysely";

const READ_BINDING = prepared("verifications_binding", (db, p: { verificationId: string }) =>
  db
    .selectFrom("verifications")
    .select([
      "id",
      "appId",
      "environment",
      "status",
      "redirectUri",
      "state",
      "returnedAt",
      "viaOidcProvider",
      "browserBindingHash",
    ])
    .where("id", "=", p.verificationId),
);

/** Session `id`'s binding and what its return is computed from; undefined: none. */
export async function readBinding(db: Db, id: string) {
  const [row] = await READ_BINDING.run(db, { verificationId: id });
  return row;
}

const READ_OIDC_REQUEST = prepared("verifications_oidc_request", (db, p: { verificationId: string }) =>
  db
    .selectFrom("oidcAuthorizationRequests")
    .select(["id", "issuer", "resumeToken", "completedAt", "handoffHash"])
    .where("verificationId", "=", p.verificationId),
);

/** The OpenID Provider's authorization request that started session `id`; undefined: none. */
export async function readOidcRequestOf(db: Db, verificationId: string) {
  const [row] = await READ_OIDC_REQUEST.run(db, { verificationId });
  return row;
}

/**
 * Consumes the hand-off of request `requestId` when its hash is `handoffHash`, storing the
 * resume proof's hash `proofHash`: true for the one call that consumed it.
 */
export async function consumeHandoff(
  db: Db,
  requestId: string,
  handoffHash: string,
  proofHash: string,
): Promise<boolean> {
  const result = await db
    .updateTable("oidcAuthorizationRequests")
    .set({ handoffHash: null, resumeProofHash: proofHash })
    .where("id", "=", requestId)
    .where("handoffHash", "=", handoffHash)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Binds session `id` to the browser whose secret hashes to `hash`: false when there is no such session. */
export async function setBrowserBinding(db: Db, id: string, hash: string): Promise<boolean> {
  const result = await db
    .updateTable("verifications")
    .set({ browserBindingHash: hash, updatedAt: new Date() })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Binds session `id` to that browser when no browser holds it yet: true for the one that took it. */
export async function claimBrowserBinding(db: Db, id: string, hash: string): Promise<boolean> {
  const result = await db
    .updateTable("verifications")
    .set({ browserBindingHash: hash, updatedAt: new Date() })
    .where("id", "=", id)
    .where("browserBindingHash", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

const READ_RETURN_ADDRESSES = prepared("verifications_return_addresses", (db, p: { appId: string }) =>
  db
    .selectFrom("apps")
    .select(["redirectUris", "defaultSuccessRedirectUri", "defaultFailureRedirectUri", "deletedAt"])
    .where("id", "=", p.appId),
);

/** The addresses app `appId` registered for a REST session's return; undefined: no such app. */
export async function readReturnAddresses(db: Db, appId: string) {
  const [row] = await READ_RETURN_ADDRESSES.run(db, { appId });
  return row;
}
