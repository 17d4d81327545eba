/**
 * Workspace roles and what each may do, per environment. Enforced by `withApi` on every
 * workspace endpoint (the endpoint definition names its permission; GET defaults to `read`,
 * every other method to `write`), whatever the credential: a console session carries the
 * member's role, a workspace API key acts as `admin` within its own environment.
 *
 * | permission        | owner | admin | developer              | viewer |
 * | ----------------- | ----- | ----- | ---------------------- | ------ |
 * | read              | yes   | yes   | yes                    | yes    |
 * | write             | yes   | yes   | yes                    | no     |
 * | credentials       | yes   | yes   | sandbox only           | no     |
 * | personal_data     | yes   | yes   | no                     | no     |
 * | team              | yes   | yes   | no                     | no     |
 * | team_owner        | yes   | no    | no                     | no     |
 *
 * `credentials` covers API keys, client-secret rotation, app deletion and the webhook signing
 * secret (reading and rotating it): in production they are what a developer must not hold.
 * `team_owner` covers granting or taking the owner role.
 */
import type { TEnvironment } from "../environments";
import { memberGuard } from "../state-machine";

export const ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type TRole = (typeof ROLES)[number];
export const isRole = memberGuard(ROLES);

export const PERMISSIONS = ["read", "write", "credentials", "personal_data", "team", "team_owner"] as const;
export type TPermission = (typeof PERMISSIONS)[number];

export function parseRole(value: string): TRole {
  return isRole(value) ? value : "viewer";
}

export function can(role: TRole, permission: TPermission, environment: TEnvironment): boolean {
  switch (permission) {
    case "read":
      return true;
    case "write":
      return role !== "viewer";
    case "credentials":
      return role === "owner" || role === "admin" || (role === "developer" && environment === "sandbox");
    case "personal_data":
    case "team":
      return role === "owner" || role === "admin";
    case "team_owner":
      return role === "owner";
  }
}

/** Human wording of a permission, for the 403 message. */
export const PERMISSION_LABEL: Record<TPermission, string> = {
  read: "read this workspace",
  write: "make changes",
  credentials: "manage credentials in this environment",
  personal_data: "see personal data",
  team: "manage the team",
  team_owner: "grant or remove the owner role",
};

/** What each role may do, in the order shown on the Team page. */
export const ROLE_DESCRIPTIONS: Record<TRole, string> = {
  owner: "Everything, including granting the owner role.",
  admin: "Everything except the owner role: team, credentials, personal data.",
  developer:
    "Builds the integration: apps, workflows, webhooks, domains; sandbox keys and secrets. No production credentials (API keys, client and webhook signing secrets), team or personal data.",
  viewer: "Reads everything except personal data; changes nothing.",
};
