/**
 * Self-service sign-up (POST /v1/signup): a new workspace and its owner.
 * Rules:
 * - off when IDV_SIGNUP=off (403 SIGNUP_DISABLED), checked before anything else;
 * - every attempt that passes validation counts towards the client address's limit; over it the
 *   attempt is refused (429 with Retry-After) before any work;
 * - validation is the CLI's (`idv workspace create`); no API keys are created (they are made on
 *   the API keys page and shown once there);
 * - an email that already has an account: with that account's password the workspace is added
 *   to it (as the CLI does); with any other password the answer is a field error on `email`
 *   that does not say whether the password was the problem. A wrong password counts towards the
 *   sign-in limits of the email and address, and those limits are checked first, so sign-up is
 *   no way around them for guessing passwords;
 * - audited as `workspace.created` with the owner as actor.
 */
import { normalizeEmail, checkSignInLimits } from "../auth/sign-in";
import { recordAudit } from "../audit";
import { userActor } from "../auth/actor";
import { signupEnabled } from "../console/signup";
import { hashPassword, verifyPassword } from "../crypto/password";
import { Prisma, type Tx } from "../db/client";
import { ApiError, invalidField } from "../errors";
import { newId } from "../ids";
import { fail, signInLimits } from "../rate-limit";
import type { TJoinedJson } from "./endpoints";
import { checkLimit, signUpLimit } from "./limits";
import type { TSignUp } from "./schema";

const EMAIL_UNUSABLE = "cannot be used for sign-up; sign in instead, or use another email";

export async function signUp(
  db: Tx,
  input: TSignUp & { ip: string; requestId: string },
): Promise<TJoinedJson> {
  if (!signupEnabled()) {
    throw new ApiError(
      "SIGNUP_DISABLED",
      "Sign-up is turned off on this service. Ask its operator to create a workspace for you",
    );
  }
  const limit = signUpLimit();
  await checkLimit(limit, input.ip, "sign-up");
  await fail(limit, input.ip);

  const email = normalizeEmail(input.email);
  let user = await db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
  let newUser = false;
  if (user) {
    await checkSignInLimits(email, input.ip);
    if (!(await verifyPassword(input.password, user.passwordHash))) {
      const limits = signInLimits();
      await fail(limits.email, email);
      await fail(limits.ip, input.ip);
      throw invalidField("email", EMAIL_UNUSABLE);
    }
  } else {
    try {
      user = await db.user.create({
        data: {
          id: newId("usr"),
          email,
          name: input.name ?? null,
          passwordHash: await hashPassword(input.password),
        },
        select: { id: true, passwordHash: true },
      });
    } catch (err) {
      // the same email signed up at the same moment
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")
        throw invalidField("email", EMAIL_UNUSABLE);
      throw err;
    }
    newUser = true;
  }

  const workspaceId = newId("ws");
  await db.workspace.create({ data: { id: workspaceId, name: input.workspaceName } });
  await db.membership.create({ data: { workspaceId, userId: user.id, role: "owner" } });
  await recordAudit(db, {
    workspaceId,
    environment: null,
    actor: userActor(user.id),
    action: "workspace.created",
    targetType: "workspace",
    targetId: workspaceId,
    requestId: input.requestId,
    data: { name: input.workspaceName, via: "signup", newUser },
  });
  return { workspaceId, userId: user.id, email };
}
