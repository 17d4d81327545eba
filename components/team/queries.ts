/**
 * Query keys and types of the Team page and the invitation link. The team is workspace-wide (the
 * same under /api/sandbox and /api/production), so its keys carry the workspace, not the
 * environment.
 */
import type {
  TCreatedInvitationJson,
  TInvitationJson,
  TInvitationLookupJson,
  TJoinedJson,
  TTeamMemberJson,
} from "@/lib/team/endpoints";
import type { TPage } from "@/lib/http/pagination";

export type TMember = TTeamMemberJson;
export type TInvitation = TInvitationJson;
export type TCreatedInvitation = TCreatedInvitationJson;

export type TListPage<T> = TPage<T>;

/** What POST /v1/invitations/lookup answers. */
export type TInvitationLookup = TInvitationLookupJson;

/** What POST /v1/invitations/accept answers. */
export type TJoined = TJoinedJson;

export const teamKeys = {
  all: (workspaceId: string) => ["team", workspaceId] as const,
  members: (workspaceId: string) => [...teamKeys.all(workspaceId), "members"] as const,
  memberPage: (workspaceId: string, params: { offset: number; limit: number }) =>
    [...teamKeys.members(workspaceId), params] as const,
  invitations: (workspaceId: string) => [...teamKeys.all(workspaceId), "invitations"] as const,
  invitationPage: (workspaceId: string, params: { offset: number; limit: number }) =>
    [...teamKeys.invitations(workspaceId), params] as const,
};

export const invitationKeys = {
  /** the token is the credential: kept in memory only, never persisted */
  lookup: (token: string) => ["invitation-link", token] as const,
};
