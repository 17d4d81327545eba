/**
 * Invitations: single-use links that let someone join a workspace with a role.
 * Rules:
 * - inviting needs `team`, inviting an owner `team_owner`; an email that already is a member is
 *   409 ALREADY_MEMBER; a new invitation to the same email revokes the pending one, so at most
 *   one link per email works;
 * - the link's token is 43 random characters (~256 bits); only its SHA-256 is stored and the link
 *   is returned once, at creation; it is valid for 7 days;
 * - lookup and accept take the token in the body (never in a URL that reaches logs). Unknown,
 *   used, revoked and expired tokens are 410 INVITATION_INVALID and count as failures of the
 *   client address (429 once over the limit, checked first);
 * - accepting claims the invitation with a conditional update before anything else, so of two
 *   concurrent accepts exactly one succeeds; any later error rolls the claim back;
 * - a new email gets an account with the given password (≥ 8 characters); an existing account
 *   must give its own password (a field error on `password` otherwise, counted like a failed
 *   sign-in of that email, whose limit is checked first);
 * - an existing member keeps their membership and role (no duplicate);
 * - with mail configured (lib/mail) the link is also emailed to the invited address, queued in
 *   the same transaction (`emailed: true`); without it the link is only in the answer, to pass on;
 * - every change is audited: invitation.created / invitation.revoked / invitation.accepted.
 */
import { checkSignInLimits, normalizeEmail } from "../auth/sign-in";
import { can, parseRole } from "../auth/roles";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { publicUrl } from "../config";
import { recordAudit, workspaceWideAudit } from "../audit";
import { userActor } from "../auth/actor";
import { sha256Hex } from "../crypto/hash";
import { hashPassword, verifyPassword } from "../crypto/password";
import type { Db } from "../db/client";
import { ApiError, invalidField, notFound } from "../errors";
import { page, type TPage } from "../http/pagination";
import { newId, randomToken } from "../ids";
import { fail, signInLimits } from "../rate-limit";
import type {
  TCreatedInvitationJson,
  TInvitationJson,
  TInvitationLookupJson,
  TJoinedJson,
} from "./endpoints";
import { checkLimit, invitationLimit } from "./limits";
import { queueMail } from "../mail/queue";
import { invitationMail } from "../mail/templates";
import { mailConfigured } from "../mail/transport";
import { forbidden, type TeamActor } from "./members";
import type { TAcceptInvitation, TCreateInvitation } from "./schema";
import { insertUser, readUserByEmail, setUserName } from "./store/accounts";
import {
  claimInvitation,
  countPendingInvitations,
  insertInvitation,
  listPendingInvitations,
  readInvitation,
  readInvitationByToken,
  revokePendingInvitations,
  setInvitationAcceptedBy,
  setInvitationRevoked,
} from "./store/invitations";
import { hasMemberWithEmail, insertMembership, readMembershipRole, readWorkspaceName } from "./store/members";

// a missing row answers 404 RESOURCE_NOT_FOUND
const missingRow = () => new ApiError("RESOURCE_NOT_FOUND", "Resource not found");

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const TOKEN_LENGTH = 43;

export function invitationUrl(token: string): string {
  return `${publicUrl()}/invite/${token}`;
}

export async function createInvitation(
  db: Db,
  actor: TeamActor,
  input: TCreateInvitation,
): Promise<TCreatedInvitationJson> {
  const { auth } = actor;
  if (input.role === "owner" && !can(auth.role, "team_owner", auth.environment))
    throw forbidden(auth, "team_owner");
  const email = normalizeEmail(input.email);
  if (await hasMemberWithEmail(db, auth.workspaceId, email)) {
    throw new ApiError("ALREADY_MEMBER", `${email} is already a member of this workspace`, {
      details: [{ path: "email", message: "is already a member of this workspace" }],
    });
  }
  const now = new Date();
  const replaced = await revokePendingInvitations(db, auth.workspaceId, email, now);
  const token = randomToken(TOKEN_LENGTH);
  const invitation = {
    id: newId("inv"),
    workspaceId: auth.workspaceId,
    email,
    role: input.role,
    tokenHash: sha256Hex(token),
    createdById: auth.actor.type === "user" ? auth.actor.id : null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
  };
  await insertInvitation(db, invitation);
  const emailed = mailConfigured();
  if (emailed) {
    const workspaceName = await readWorkspaceName(db, auth.workspaceId);
    if (workspaceName === undefined) throw missingRow();
    await queueMail(
      db,
      "invitation",
      invitationMail({
        to: email,
        workspaceName,
        role: input.role,
        invitedBy: auth.actor.type === "user" ? auth.actor.name : null,
        url: invitationUrl(token),
        expiresAt: invitation.expiresAt,
      }),
    );
  }
  await recordAudit(db, {
    ...workspaceWideAudit(actor),
    action: "invitation.created",
    targetType: "invitation",
    targetId: invitation.id,
    data: { email, role: input.role, replaced, emailed },
  });
  return {
    invitationId: invitation.id,
    email,
    role: input.role,
    expiresAt: invitation.expiresAt.toISOString(),
    createdAt: invitation.createdAt.toISOString(),
    url: invitationUrl(token),
    emailed,
  };
}

export async function listInvitations(
  db: Db,
  auth: WorkspaceAuth,
  { limit, offset }: { limit: number; offset: number },
): Promise<TPage<TInvitationJson>> {
  const now = new Date();
  const [total, rows] = await Promise.all([
    countPendingInvitations(db, auth.workspaceId, now),
    listPendingInvitations(db, auth.workspaceId, now, { limit, offset }),
  ]);
  const data = rows.map((r) => {
    const creatorEmail = r.creatorEmail;
    return {
      invitationId: r.id,
      email: r.email,
      role: parseRole(r.role),
      expiresAt: r.expiresAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      createdBy: r.createdById && creatorEmail ? { userId: r.createdById, email: creatorEmail } : null,
    };
  });
  return page(data, total, limit, offset);
}

export async function revokeInvitation(
  db: Db,
  actor: TeamActor,
  invitationId: string,
): Promise<{ revoked: true }> {
  const { auth } = actor;
  const invitation = await readInvitation(db, invitationId);
  if (!invitation || invitation.workspaceId !== auth.workspaceId)
    throw notFound(`Invitation ${invitationId}`);
  if (invitation.acceptedAt) {
    throw new ApiError(
      "INVITATION_NOT_PENDING",
      "This invitation was already accepted: remove the member instead",
    );
  }
  if (invitation.revokedAt) return { revoked: true };
  if (!(await setInvitationRevoked(db, invitationId, new Date()))) throw missingRow();
  await recordAudit(db, {
    ...workspaceWideAudit(actor),
    action: "invitation.revoked",
    targetType: "invitation",
    targetId: invitationId,
    data: { email: invitation.email, role: invitation.role },
  });
  return { revoked: true };
}

// ---- the invitation link (no authentication) ----

interface UsableInvitation {
  id: string;
  workspaceId: string;
  email: string;
  role: string;
  expiresAt: Date;
  workspaceName: string;
}

/** The invitation of a token if it can still be accepted, else 410 (counted against `ip`). */
async function usableInvitation(db: Db, token: string, ip: string): Promise<UsableInvitation> {
  const row = await readInvitationByToken(db, sha256Hex(token));
  let problem: string | undefined;
  if (!row) problem = "This invitation link is not valid. Ask for a new invitation";
  else if (row.acceptedAt) problem = "This invitation was already used. Sign in instead";
  else if (row.revokedAt) problem = "This invitation was withdrawn. Ask for a new invitation";
  else if (row.expiresAt.getTime() <= Date.now())
    problem = "This invitation has expired. Ask for a new invitation";
  if (problem || !row) {
    await fail(invitationLimit(), ip);
    throw new ApiError("INVITATION_INVALID", problem ?? "This invitation link is not valid");
  }
  return row;
}

export async function lookupInvitation(
  db: Db,
  input: { token: string; ip: string },
): Promise<TInvitationLookupJson> {
  await checkLimit(invitationLimit(), input.ip, "invitation");
  const invitation = await usableInvitation(db, input.token, input.ip);
  const user = await readUserByEmail(db, invitation.email);
  return {
    workspaceName: invitation.workspaceName,
    email: invitation.email,
    role: parseRole(invitation.role),
    expiresAt: invitation.expiresAt.toISOString(),
    existingUser: user !== undefined,
  };
}

export async function acceptInvitation(
  db: Db,
  input: TAcceptInvitation & { ip: string; requestId: string },
): Promise<TJoinedJson> {
  const limit = invitationLimit();
  await checkLimit(limit, input.ip, "invitation");
  const invitation = await usableInvitation(db, input.token, input.ip);
  const now = new Date();
  // claim first: the row lock makes a concurrent accept wait, then find nothing to claim
  if (!(await claimInvitation(db, invitation.id, now))) {
    await fail(limit, input.ip);
    throw new ApiError("INVITATION_INVALID", "This invitation was already used. Sign in instead");
  }

  const email = invitation.email;
  const existing = await readUserByEmail(db, email);
  let userId: string;
  if (existing) {
    await checkSignInLimits(email, input.ip);
    if (!(await verifyPassword(input.password, existing.passwordHash))) {
      await fail(signInLimits().email, email);
      await fail(limit, input.ip);
      throw invalidField("password", `is not the password of your account ${email}`);
    }
    if (input.name && !existing.name) {
      await setUserName(db, existing.id, input.name);
    }
    userId = existing.id;
  } else {
    if (input.password.length < 8) throw invalidField("password", "must be at least 8 characters");
    userId = newId("usr");
    await insertUser(db, {
      id: userId,
      email,
      name: input.name ?? null,
      passwordHash: await hashPassword(input.password),
    });
  }

  if (!(await setInvitationAcceptedBy(db, invitation.id, userId))) throw missingRow();
  const membershipRole = await readMembershipRole(db, invitation.workspaceId, userId);
  if (membershipRole === undefined) {
    await insertMembership(db, {
      workspaceId: invitation.workspaceId,
      userId,
      role: parseRole(invitation.role),
    });
  }
  await recordAudit(db, {
    workspaceId: invitation.workspaceId,
    environment: null,
    actor: userActor(userId),
    action: "invitation.accepted",
    targetType: "invitation",
    targetId: invitation.id,
    requestId: input.requestId,
    data: {
      email,
      role: parseRole(membershipRole ?? invitation.role),
      newUser: !existing,
      alreadyMember: membershipRole !== undefined,
    },
  });
  return { workspaceId: invitation.workspaceId, userId, email };
}
