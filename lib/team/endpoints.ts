/**
 * Endpoint definitions of the account (me, password), sign-up, team and invitation resources
 * (see lib/http/endpoint.ts). Team endpoints are workspace-wide: they answer the same under
 * /api/sandbox and /api/production.
 */
import { z } from "zod";
import { ENVIRONMENTS } from "../environments";
import { endpoint } from "../http/endpoint";
import { pageOf } from "../http/pagination";
import {
  ZAcceptInvitation,
  ZChangePassword,
  ZCreateInvitation,
  ZInvitationLookup,
  ZPasswordResetComplete,
  ZPasswordResetLookup,
  ZPasswordResetRequest,
  ZRole,
  ZSignUp,
  ZSignUpConfirm,
  ZTeamListQuery,
  ZUpdateMember,
} from "./schema";

const iso = z.string().describe("ISO 8601 date-time");

export const ZMeJson = z.object({
  user: z
    .object({ id: z.string(), email: z.string(), name: z.string().nullable() })
    .nullable()
    .describe("The signed-in user; null for an API key"),
  actor: z.object({
    type: z.enum(["api_key", "user"]),
    id: z.string().describe("usr_… or key_…"),
    name: z.string().describe("The user's name (else email), or the API key's name"),
  }),
  workspace: z.object({ id: z.string(), name: z.string() }),
  environment: z.enum(ENVIRONMENTS),
  role: ZRole.describe("API keys act as admin within their environment"),
  permissions: z
    .object({
      write: z.boolean(),
      credentials: z.boolean(),
      personal_data: z.boolean(),
      team: z.boolean(),
      team_owner: z.boolean(),
    })
    .describe("What the role may do in this environment (lib/auth/roles.ts)"),
  memberships: z
    .array(z.object({ workspaceId: z.string(), name: z.string(), role: ZRole }))
    .describe("Every workspace of the signed-in user, oldest first; [] for an API key"),
});
export type TMeJson = z.infer<typeof ZMeJson>;

export const ZTeamMemberJson = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: ZRole,
  joinedAt: iso,
  lastSignInAt: iso.nullable(),
  isYou: z.boolean().describe("true for the signed-in user; always false for an API key"),
});
export type TTeamMemberJson = z.infer<typeof ZTeamMemberJson>;

export const ZInvitationJson = z.object({
  invitationId: z.string(),
  email: z.string(),
  role: ZRole,
  expiresAt: iso,
  createdAt: iso,
  createdBy: z
    .object({ userId: z.string(), email: z.string() })
    .nullable()
    .describe("null when an API key invited, or the inviter's account is gone"),
});
export type TInvitationJson = z.infer<typeof ZInvitationJson>;

export const ZCreatedInvitationJson = z.object({
  invitationId: z.string(),
  email: z.string(),
  role: ZRole,
  expiresAt: iso,
  createdAt: iso,
  url: z
    .string()
    .describe("The invitation link ({PUBLIC_URL}/invite/{token}). Shown only in this response; single use"),
  emailed: z
    .boolean()
    .describe("true when the link was also emailed to the invited address (the service has SMTP_URL)"),
});
export type TCreatedInvitationJson = z.infer<typeof ZCreatedInvitationJson>;

export const ZJoinedJson = z.object({ workspaceId: z.string(), userId: z.string(), email: z.string() });
export type TJoinedJson = z.infer<typeof ZJoinedJson>;

export const ZInvitationLookupJson = z.object({
  workspaceName: z.string(),
  email: z.string(),
  role: ZRole,
  expiresAt: iso,
  existingUser: z.boolean(),
});
export type TInvitationLookupJson = z.infer<typeof ZInvitationLookupJson>;

// ---- account ----

export const getMe = endpoint({
  method: "GET",
  path: "/v1/me",
  operationId: "getMe",
  summary: "Who am I",
  description:
    "The caller (console user or API key), the workspace, its role and what that role may do in this environment. The console reads it on every page.",
  tag: "Account",
  auth: "workspace",
  responses: { 200: { description: "The caller", schema: ZMeJson } },
});

export const changePassword = endpoint({
  method: "POST",
  path: "/v1/me/password",
  operationId: "changePassword",
  summary: "Change your password",
  description:
    "Permission `read` (every member, for their own account); console session only: an API key has no password (403 RESOURCE_FORBIDDEN). `newPassword`: at least 8 characters, not the current one. A wrong `currentPassword` is 400 VALIDATION_ERROR on that field; 10 wrong ones within 15 minutes (IDV_PASSWORD_CHANGE_LIMIT) are 429 RATE_LIMITED with Retry-After. On success every console session of the user ends, this one included: sign in again.",
  tag: "Account",
  auth: "workspace",
  permission: "read",
  body: ZChangePassword,
  responses: {
    200: {
      description: "Changed; every session is signed out",
      schema: z.object({ signedOut: z.literal(true) }),
    },
  },
  errors: [403, 429],
});

const ZSignedOutJson = z.object({ signedOut: z.literal(true) });

export const signOutEverywhere = endpoint({
  method: "POST",
  path: "/v1/me/sign-out-everywhere",
  operationId: "signOutEverywhere",
  summary: "Sign out of all your sessions",
  description:
    "Permission `read` (every member, for their own account); console session only: an API key is no session (403 RESOURCE_FORBIDDEN). Ends every console and back-office session of the signed-in user on the server, this one included, on every device: their next request is 401 INVALID_SESSION and none is renewed. Audited as `user.signed_out_everywhere`. Answers the same under /api/sandbox and /api/production.",
  tag: "Account",
  auth: "workspace",
  permission: "read",
  responses: { 200: { description: "Every session of the user has ended", schema: ZSignedOutJson } },
});

export const signOutEverywhereAsOperator = endpoint({
  method: "POST",
  path: "/v1/operator/me/sign-out-everywhere",
  operationId: "signOutEverywhereAsOperator",
  summary: "Sign out of all your sessions (Operator API)",
  description:
    'The back-office\'s "Sign out of all sessions", for an operator without a workspace too. Operator session only: an operator key is no session (403 RESOURCE_FORBIDDEN). Ends every console and back-office session of the operator on the server, this one included: their next request is 401 INVALID_SESSION and none is renewed. Audited as `user.signed_out_everywhere`.',
  tag: "Operator",
  auth: "operator",
  responses: { 200: { description: "Every session of the operator has ended", schema: ZSignedOutJson } },
});

export const ZSignUpPendingJson = z.object({
  status: z
    .literal("confirmation_sent")
    .describe("The same answer for a new and an already registered address: the rest happens by email"),
});
export type TSignUpPendingJson = z.infer<typeof ZSignUpPendingJson>;

export const signUp = endpoint({
  method: "POST",
  path: "/v1/signup",
  operationId: "signUp",
  summary: "Create a workspace (self-service sign-up)",
  description:
    "No authentication. Asks for a workspace owned by the given account, with the rules of `idv workspace create` (name 1–100 characters, a valid email, a password of at least 8 characters). No API keys are created: create them on the API keys page. When the service sends mail (SMTP_URL) the answer is 202 `confirmation_sent` whether or not the email has an account: a new address gets a link (24 hours, single use) that creates the workspace and its owner through POST /v1/signup/confirm; an address with an account is told by email that someone tried to sign up with it. Without mail the workspace is created at once (201); an email that already has an account then works only with that account's password (the workspace is added to it), otherwise 400 VALIDATION_ERROR on `email`. 403 SIGNUP_DISABLED when the operator turned sign-up off (IDV_SIGNUP=off). At most 20 attempts per client address and hour (IDV_SIGNUP_LIMIT_IP) and, with mail, 5 per email and hour (IDV_MAIL_LIMIT_EMAIL): 429 RATE_LIMITED with Retry-After. Answers the same under /api/sandbox and /api/production.",
  tag: "Account",
  auth: "none",
  body: ZSignUp,
  responses: {
    201: { description: "Without mail: the workspace and its owner", schema: ZJoinedJson },
    202: { description: "With mail: the rest happens by email", schema: ZSignUpPendingJson },
  },
  errors: [403, 429],
});

export const confirmSignUp = endpoint({
  method: "POST",
  path: "/v1/signup/confirm",
  operationId: "confirmSignUp",
  summary: "Confirm a sign-up (the emailed link)",
  description:
    "No authentication: the emailed link's token is the credential, and `password` must be the one given at sign-up (400 on `password` otherwise). Creates the account, the workspace and its ownership; then sign in as usual. Single use, valid for 24 hours: afterwards, for unknown tokens, and when the address got an account meanwhile (sign in instead), 410 SIGNUP_LINK_INVALID; 20 failures per client address and hour (IDV_SIGNUP_LIMIT_IP) are 429 RATE_LIMITED with Retry-After.",
  tag: "Account",
  auth: "none",
  body: ZSignUpConfirm,
  responses: { 201: { description: "The workspace and its owner", schema: ZJoinedJson } },
  errors: [403, 410, 429],
});

// ---- password reset (no authentication: the emailed link's token is the credential) ----

export const requestPasswordReset = endpoint({
  method: "POST",
  path: "/v1/password-reset",
  operationId: "requestPasswordReset",
  summary: "Ask for a password-reset link",
  description:
    "No authentication. Emails a single-use link, valid for 30 minutes, to the address if it has an account; the answer is the same either way. A newer request replaces the unused link. Every request counts: IDV_PASSWORD_RESET_LIMIT_IP per client address and hour (default 20) and IDV_MAIL_LIMIT_EMAIL per email and hour (default 5), then 429 RATE_LIMITED with Retry-After. 403 PASSWORD_RESET_UNAVAILABLE when the service sends no mail (SMTP_URL unset): ask a workspace owner.",
  tag: "Account",
  auth: "none",
  body: ZPasswordResetRequest,
  responses: {
    202: {
      description: "Sent if the address has an account",
      schema: z.object({ status: z.literal("sent_if_account_exists") }),
    },
  },
  errors: [403, 429],
});

export const lookupPasswordReset = endpoint({
  method: "POST",
  path: "/v1/password-reset/lookup",
  operationId: "lookupPasswordReset",
  summary: "Read a password-reset link",
  description:
    "No authentication: the link's token is the credential (in the body, so it stays out of logs). An unknown, used or expired token is 410 RESET_LINK_INVALID and counts towards the client address's limit (IDV_PASSWORD_RESET_LIMIT_IP per hour; 429 once over it).",
  tag: "Account",
  auth: "none",
  body: ZPasswordResetLookup,
  responses: {
    200: {
      description: "The link's account",
      schema: z.object({ email: z.string(), expiresAt: iso }),
    },
  },
  errors: [403, 410, 429],
});

export const completePasswordReset = endpoint({
  method: "POST",
  path: "/v1/password-reset/complete",
  operationId: "completePasswordReset",
  summary: "Set a new password with a reset link",
  description:
    "No authentication: the link's token is the credential. `newPassword`: at least 8 characters. Single use: afterwards, and for unknown or expired tokens, 410 RESET_LINK_INVALID (counted as for the lookup). Every console session of the account ends; sign in with the new password.",
  tag: "Account",
  auth: "none",
  body: ZPasswordResetComplete,
  responses: {
    200: {
      description: "The password is set; every session is signed out",
      schema: z.object({ reset: z.literal(true), email: z.string() }),
    },
  },
  errors: [403, 410, 429],
});

// ---- team ----

export const listTeamMembers = endpoint({
  method: "GET",
  path: "/v1/team/members",
  operationId: "listTeamMembers",
  summary: "List the workspace's members",
  description: "Oldest member first. `limit` 1–100 (default 100), `offset` ≥ 0.",
  tag: "Team",
  auth: "workspace",
  query: ZTeamListQuery,
  responses: { 200: { description: "A page of members", schema: pageOf(ZTeamMemberJson) } },
});

export const updateTeamMember = endpoint({
  method: "PATCH",
  path: "/v1/team/members/{user_id}",
  operationId: "updateTeamMember",
  summary: "Change a member's role",
  description:
    "Permission `team` (owner, admin; API keys act as admin); granting or taking the owner role needs `team_owner` (owner). The last owner cannot be demoted: 409 LAST_OWNER.",
  tag: "Team",
  auth: "workspace",
  permission: "team",
  body: ZUpdateMember,
  responses: { 200: { description: "The member", schema: ZTeamMemberJson } },
  errors: [403, 409],
});

export const removeTeamMember = endpoint({
  method: "DELETE",
  path: "/v1/team/members/{user_id}",
  operationId: "removeTeamMember",
  summary: "Remove a member, or leave the workspace",
  description:
    "Permission `team` (owner, admin; API keys act as admin) to remove someone else, `team_owner` (owner) to remove an owner; every member may remove themselves (leave). The last owner can neither leave nor be removed: 409 LAST_OWNER. The member's console sessions lose access at once; API keys they created keep working until revoked.",
  tag: "Team",
  auth: "workspace",
  // leaving needs no team permission: removeMember checks who may remove whom
  permission: "read",
  responses: { 200: { description: "Removed", schema: z.object({ removed: z.literal(true) }) } },
  errors: [403, 409],
});

export const listInvitations = endpoint({
  method: "GET",
  path: "/v1/team/invitations",
  operationId: "listInvitations",
  summary: "List pending invitations",
  description:
    "Invitations neither accepted, revoked nor expired, newest first. The links themselves are never shown again. `limit` 1–100 (default 100), `offset` ≥ 0.",
  tag: "Team",
  auth: "workspace",
  query: ZTeamListQuery,
  responses: { 200: { description: "A page of invitations", schema: pageOf(ZInvitationJson) } },
});

export const createInvitation = endpoint({
  method: "POST",
  path: "/v1/team/invitations",
  operationId: "createInvitation",
  summary: "Invite someone to the workspace",
  description:
    "Permission `team` (owner, admin; API keys act as admin); inviting an owner needs `team_owner` (owner). Returns a single-use link valid for 7 days, shown only in this response; when the service sends mail (SMTP_URL) the link is also emailed to the invited address (`emailed: true`), otherwise pass it on yourself. A new invitation to the same email replaces the pending one. An email that is already a member: 409 ALREADY_MEMBER.",
  tag: "Team",
  auth: "workspace",
  permission: "team",
  body: ZCreateInvitation,
  responses: { 201: { description: "The invitation with its link", schema: ZCreatedInvitationJson } },
  errors: [403, 409],
});

export const revokeInvitation = endpoint({
  method: "DELETE",
  path: "/v1/team/invitations/{invitation_id}",
  operationId: "revokeInvitation",
  summary: "Revoke an invitation",
  description:
    "Permission `team` (owner, admin; API keys act as admin). Its link stops working at once; revoking twice is fine. An accepted invitation cannot be revoked (409 INVITATION_NOT_PENDING): remove the member instead.",
  tag: "Team",
  auth: "workspace",
  permission: "team",
  responses: { 200: { description: "Revoked", schema: z.object({ revoked: z.literal(true) }) } },
  errors: [403, 409],
});

// ---- invitation links (no authentication: the token is the credential) ----

export const lookupInvitation = endpoint({
  method: "POST",
  path: "/v1/invitations/lookup",
  operationId: "lookupInvitation",
  summary: "Read an invitation link",
  description:
    "No authentication: the link's token is the credential (sent in the body, so it stays out of logs). `existingUser` says whether the invited email already has an account (then accepting needs that account's password). An unknown, used, revoked or expired token is 410 INVITATION_INVALID; 30 of those per client address within 15 minutes (IDV_INVITATION_LIMIT_IP) are 429 RATE_LIMITED with Retry-After.",
  tag: "Invitations",
  auth: "none",
  body: ZInvitationLookup,
  responses: {
    200: {
      description: "The invitation",
      schema: ZInvitationLookupJson,
    },
  },
  errors: [410, 429],
});

export const acceptInvitation = endpoint({
  method: "POST",
  path: "/v1/invitations/accept",
  operationId: "acceptInvitation",
  summary: "Accept an invitation",
  description:
    "No authentication: the link's token is the credential. For a new email creates the account with `password` (at least 8 characters) and `name`; for an existing account `password` must be that account's password (400 on `password` otherwise; wrong passwords count towards the sign-in limits). Joins the workspace with the invited role (an existing member keeps their role). Single use: afterwards, and for unknown, revoked or expired tokens, 410 INVITATION_INVALID. Then sign in as usual.",
  tag: "Invitations",
  auth: "none",
  body: ZAcceptInvitation,
  responses: { 200: { description: "Joined", schema: ZJoinedJson } },
  errors: [410, 429],
});
