/**
 * Operators: the people who run the service (activation review, production-test scheduling,
 * domain support) through the back-office and the Operator API.
 * Rules: an operator is a user with isOperator=true. Creating one for an email that already
 * has a user requires that user's password, then upgrades the user, so nobody can turn a
 * stranger's account into an operator or take it over. Every call issues a new operator key
 * (shown once, stored as SHA-256) and writes an audit record in the same transaction. Run it
 * inside a transaction.
 */
import { recordAudit } from "../audit";
import { cliActor, type TActor } from "../auth/actor";
import { createOperatorKey } from "../auth/operator-keys";
import type { Db } from "../db/client";
import { hashPassword, verifyPassword } from "../crypto/password";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { insertOperatorUser, readUserForOperator, setUserOperator } from "./store";

export interface CreatedOperator {
  userId: string;
  operatorKey: string;
  keyId: string;
  /** a new user was created (rather than an existing one upgraded or given another key) */
  newUser: boolean;
  /** the user was an operator before this call */
  wasOperator: boolean;
}

export async function createOperator(
  db: Db,
  input: { email: string; password: string },
  // who creates the operator: the admin CLI acting for the new operator unless told otherwise
  actor?: TActor,
): Promise<CreatedOperator> {
  const email = input.email.trim().toLowerCase();
  const existing = await readUserForOperator(db, email);
  if (existing && !(await verifyPassword(input.password, existing.passwordHash))) {
    throw new ApiError(
      "VALIDATION_ERROR",
      `A user with email ${email} already exists and the password does not match`,
      {
        details: [{ path: "password", message: "does not match the existing user" }],
      },
    );
  }
  let user: { id: string };
  if (existing) {
    // a missing row answers 404 RESOURCE_NOT_FOUND, should the row go between the read and here
    if (!(await setUserOperator(db, existing.id)))
      throw new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
    user = existing;
  } else {
    user = { id: newId("usr") };
    await insertOperatorUser(db, { id: user.id, email, passwordHash: await hashPassword(input.password) });
  }
  const wasOperator = existing?.isOperator ?? false;
  const key = await createOperatorKey(db, user.id);
  await recordAudit(db, {
    actor: actor ?? cliActor(user.id),
    action: wasOperator ? "operator.key_created" : "operator.created",
    targetType: "user",
    targetId: user.id,
    data: { keyId: key.id, newUser: !existing },
  });
  return { userId: user.id, operatorKey: key.key, keyId: key.id, newUser: !existing, wasOperator };
}
