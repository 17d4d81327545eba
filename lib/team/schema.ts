/**
 * Request bodies and queries of the account, sign-up, team and invitation endpoints. Unknown
 * fields are rejected everywhere. Sign-up follows `idv workspace create` (lib/cli/schemas.ts):
 * the same email, password and name rules, so the CLI and the console cannot disagree.
 */
import { z } from "zod";
import { ROLES } from "../auth/roles";
import { ZEmailFlag, ZNameFlag, ZPasswordFlag } from "../cli/schemas";
import { paginationFields } from "../http/pagination";

export const ZRole = z.enum(ROLES, { error: `must be one of: ${ROLES.join(", ")}` });

/** Invitation link tokens are 43 characters of [A-Za-z0-9]; anything else is simply unknown. */
const ZInvitationToken = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");

const ZAnyPassword = z
  .string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(1024, "must be at most 1024 characters");

export const ZSignUp = z.strictObject({
  workspaceName: ZNameFlag,
  name: ZNameFlag.optional(),
  email: ZEmailFlag,
  password: ZPasswordFlag.max(1024, "must be at most 1024 characters"),
});
export type TSignUp = z.infer<typeof ZSignUp>;

export const ZChangePassword = z.strictObject({
  currentPassword: ZAnyPassword,
  newPassword: ZPasswordFlag.max(1024, "must be at most 1024 characters"),
});
export type TChangePassword = z.infer<typeof ZChangePassword>;

export const ZUpdateMember = z.strictObject({ role: ZRole });

export const ZCreateInvitation = z.strictObject({ email: ZEmailFlag, role: ZRole });
export type TCreateInvitation = z.infer<typeof ZCreateInvitation>;

export const ZInvitationLookup = z.strictObject({ token: ZInvitationToken });

export const ZAcceptInvitation = z.strictObject({
  token: ZInvitationToken,
  name: ZNameFlag.optional(),
  // a new account needs at least 8 characters; an existing one's own password is checked as is
  password: ZAnyPassword,
});
export type TAcceptInvitation = z.infer<typeof ZAcceptInvitation>;

/** Password-reset and sign-up confirmation tokens: 43 characters; anything else is unknown. */
const ZLinkToken = ZInvitationToken;

export const ZPasswordResetRequest = z.strictObject({ email: ZEmailFlag });

export const ZPasswordResetLookup = z.strictObject({ token: ZLinkToken });

export const ZPasswordResetComplete = z.strictObject({
  token: ZLinkToken,
  newPassword: ZPasswordFlag.max(1024, "must be at most 1024 characters"),
});

export const ZSignUpConfirm = z.strictObject({
  token: ZLinkToken,
  // the password given at sign-up: whoever holds only the link cannot use it
  password: ZAnyPassword,
});
export type TSignUpConfirm = z.infer<typeof ZSignUpConfirm>;

/** Team lists are short: one page of up to 100 is the whole team in practice. */
export const ZTeamListQuery = z.object({ ...paginationFields(100) });
