/**
 * Self-service sign-up (POST /v1/signup) and its email confirmation (POST /v1/signup/confirm): a
 * new workspace and its owner.
 * Rules:
 * - off when IDV_SIGNUP=off (403 SIGNUP_DISABLED), checked before anything else;
 * - every attempt that passes validation counts towards the client address's limit; over it the
 *   attempt is refused (429 with Retry-After) before any work;
 * - validation is the CLI's (`idv workspace create`); no API keys are created (they are made on
 *   the API keys page and shown once there);
 * - with mail configured (lib/mail) the answer never tells whether the email has an account:
 *   202 `confirmation_sent` for both, the same work (the password is hashed either way), each
 *   attempt also counted against the email (IDV_MAIL_LIMIT_EMAIL). A new address gets a
 *   confirmation link (the pending sign-up is stored with the password's hash, 24 hours, single
 *   use) and nothing exists until it is used with the same password; an address with an account
 *   gets a "someone tried to sign up with your address" mail and nothing changes;
 * - without mail (SMTP_URL unset, production only: `npm run dev` catches mail) sign-up answers at
 *   once, as before: 201 for a new address, and for an existing one with that account's password
 *   the workspace is added to it; any other password is a field error on `email` that does not
 *   say whether the password was the problem (so the answer does tell that the address has an
 *   account; the start-up warning says so). A wrong password counts towards the sign-in limits
 *   of the email and address, checked first, so sign-up is no way around them;
 * - audited as `workspace.created` with the owner as actor.
 */
import { normalizeEmail, checkSignInLimits } from "../auth/sign-in";
import { recordAudit } from "../audit";
import { userActor } from "../auth/actor";
import { publicUrl } from "../config";
import { signupEnabled } from "../console/signup";
import { sha256Hex } from "../crypto/hash";
import { hashPassword, verifyPassword } from "../crypto/password";
import type { Db } from "../db/client";
import { ApiError, invalidField } from "../errors";
import { newId, randomToken } from "../ids";
import { queueMail } from "../mail/queue";
import { signupConfirmationMail, signupExistingAccountMail } from "../mail/templates";
import { mailConfigured } from "../mail/transport";
import { fail, rateLimited, signInLimits, take } from "../rate-limit";
import type { TJoinedJson, TSignUpPendingJson } from "./endpoints";
import { checkLimit, mailEmailLimit, signUpLimit } from "./limits";
import { forgotPasswordUrl } from "./password-reset";
import type { TSignUp, TSignUpConfirm } from "./schema";
import {
  claimSignupRequest,
  insertSignupRequest,
  insertUser,
  isUniqueViolation,
  readSignupRequestByToken,
  readUserByEmail,
} from "./store/accounts";
import { insertMembership, insertWorkspace } from "./store/members";

const EMAIL_UNUSABLE = "cannot be used for sign-up; sign in instead, or use another email";
export const SIGNUP_CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;
const TOKEN_LENGTH = 43;

export function signUpConfirmationUrl(token: string): string {
  return `${publicUrl()}/signup/confirm/${token}`;
}

function refuseWhenDisabled(): void {
  if (!signupEnabled()) {
    throw new ApiError(
      "SIGNUP_DISABLED",
      "Sign-up is turned off on this service. Ask its operator to create a workspace for you",
    );
  }
}

export type TSignUpResult = { status: 201; body: TJoinedJson } | { status: 202; body: TSignUpPendingJson };

export async function signUp(
  db: Db,
  input: TSignUp & { ip: string; requestId: string },
): Promise<TSignUpResult> {
  refuseWhenDisabled();
  const limit = signUpLimit();
  await checkLimit(limit, input.ip, "sign-up");
  await fail(limit, input.ip);
  if (!mailConfigured()) return { status: 201, body: await signUpAtOnce(db, input) };

  const email = normalizeEmail(input.email);
  const wait = await take(mailEmailLimit(), email);
  if (wait > 0) throw rateLimited(wait, "sign-up");
  // hashed for a known address too: both answers take the same time
  const passwordHash = await hashPassword(input.password);
  const user = await readUserByEmail(db, email);
  if (user) {
    await queueMail(
      db,
      "signup_existing_account",
      signupExistingAccountMail({ to: email, signInUrl: `${publicUrl()}/`, resetUrl: forgotPasswordUrl() }),
    );
  } else {
    const token = randomToken(TOKEN_LENGTH);
    const now = new Date();
    await insertSignupRequest(db, {
      id: newId("sup"),
      email,
      name: input.name ?? null,
      workspaceName: input.workspaceName,
      passwordHash,
      tokenHash: sha256Hex(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SIGNUP_CONFIRMATION_TTL_MS),
    });
    await queueMail(
      db,
      "signup_confirmation",
      signupConfirmationMail({
        to: email,
        workspaceName: input.workspaceName,
        url: signUpConfirmationUrl(token),
      }),
    );
  }
  return { status: 202, body: { status: "confirmation_sent" } };
}

/** Sign-up without mail: the workspace at once (see the header). */
async function signUpAtOnce(
  db: Db,
  input: TSignUp & { ip: string; requestId: string },
): Promise<TJoinedJson> {
  const email = normalizeEmail(input.email);
  const existing = await readUserByEmail(db, email);
  let userId: string;
  let newUser = false;
  if (existing) {
    await checkSignInLimits(email, input.ip);
    if (!(await verifyPassword(input.password, existing.passwordHash))) {
      const limits = signInLimits();
      await fail(limits.email, email);
      await fail(limits.ip, input.ip);
      throw invalidField("email", EMAIL_UNUSABLE);
    }
    userId = existing.id;
  } else {
    userId = newId("usr");
    try {
      await insertUser(db, {
        id: userId,
        email,
        name: input.name ?? null,
        passwordHash: await hashPassword(input.password),
      });
    } catch (err) {
      // the same email signed up at the same moment
      if (isUniqueViolation(err)) throw invalidField("email", EMAIL_UNUSABLE);
      throw err;
    }
    newUser = true;
  }
  const workspaceId = await createOwnedWorkspace(db, {
    userId,
    workspaceName: input.workspaceName,
    requestId: input.requestId,
    data: { newUser },
  });
  return { workspaceId, userId, email };
}

async function createOwnedWorkspace(
  db: Db,
  input: { userId: string; workspaceName: string; requestId: string; data: Record<string, unknown> },
): Promise<string> {
  const workspaceId = newId("ws");
  await insertWorkspace(db, { id: workspaceId, name: input.workspaceName });
  await insertMembership(db, { workspaceId, userId: input.userId, role: "owner" });
  await recordAudit(db, {
    workspaceId,
    environment: null,
    actor: userActor(input.userId),
    action: "workspace.created",
    targetType: "workspace",
    targetId: workspaceId,
    requestId: input.requestId,
    data: { name: input.workspaceName, via: "signup", ...input.data },
  });
  return workspaceId;
}

/**
 * The emailed link, used with the sign-up's password: the account, the workspace and its
 * ownership. 410 SIGNUP_LINK_INVALID for an unknown, used or expired link, or when the address
 * has an account by now; failures count towards the client address's sign-up limit.
 */
export async function confirmSignUp(
  db: Db,
  input: TSignUpConfirm & { ip: string; requestId: string },
): Promise<TJoinedJson> {
  refuseWhenDisabled();
  const limit = signUpLimit();
  await checkLimit(limit, input.ip, "sign-up");
  const row = await readSignupRequestByToken(db, sha256Hex(input.token));
  let problem: string | undefined;
  if (!row) problem = "This confirmation link is not valid. Sign up again";
  else if (row.confirmedAt) problem = "This confirmation link was already used. Sign in instead";
  else if (row.expiresAt.getTime() <= Date.now())
    problem = "This confirmation link has expired (links work for 24 hours). Sign up again";
  if (problem || !row) {
    await fail(limit, input.ip);
    throw new ApiError("SIGNUP_LINK_INVALID", problem ?? "This confirmation link is not valid");
  }
  if (!(await verifyPassword(input.password, row.passwordHash))) {
    await fail(limit, input.ip);
    throw invalidField("password", "is not the password you chose when signing up");
  }
  const now = new Date();
  // claim first: a concurrent use waits on the row lock, then finds nothing to claim
  const claimed = await claimSignupRequest(db, row.id, now);
  const taken = "This address has an account already. Sign in instead";
  if (!claimed)
    throw new ApiError("SIGNUP_LINK_INVALID", "This confirmation link was already used. Sign in instead");
  if (await readUserByEmail(db, row.email)) throw new ApiError("SIGNUP_LINK_INVALID", taken);
  const userId = newId("usr");
  try {
    await insertUser(db, { id: userId, email: row.email, name: row.name, passwordHash: row.passwordHash });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError("SIGNUP_LINK_INVALID", taken);
    throw err;
  }
  const workspaceId = await createOwnedWorkspace(db, {
    userId,
    workspaceName: row.workspaceName,
    requestId: input.requestId,
    data: { newUser: true, emailConfirmed: true },
  });
  return { workspaceId, userId, email: row.email };
}
