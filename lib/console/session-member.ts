/**
 * The first render of a console page: who is signed in and which workspace they see. Server
 * components call this with the session's user id (from next-auth) and the workspace cookie;
 * every later read and write goes through the REST API. One statement (lib/auth/store/sessions.ts
 * `readConsoleMember`): the user, the session's revocation, the memberships with their workspaces.
 */
import { can, parseRole, type TRole } from "../auth/roles";
import type { SessionClaims } from "../auth/console/claims";
import { sessionEndedBy } from "../auth/console/lifetime";
import { readConsoleMember } from "../auth/store/console-sessions";
import type { Db } from "../db/kysely";
import type { TEnvironment } from "../environments";

export const WORKSPACE_COOKIE = "idv.workspace";

export interface ConsoleMember {
  user: { id: string; email: string; name: string | null };
  workspace: { id: string; name: string };
  role: TRole;
  permissions: {
    write: boolean;
    credentials: boolean;
    personal_data: boolean;
    team: boolean;
    team_owner: boolean;
  };
  memberships: { workspaceId: string; name: string; role: TRole }[];
  /** the user is an operator too (the user menu links the back-office) */
  isOperator: boolean;
}

/** undefined when the user is gone, the session has ended (lib/auth/console/lifetime.ts), or in no workspace. */
export async function loadConsoleMember(
  db: Db,
  input: { session: SessionClaims; workspaceId?: string; environment: TEnvironment },
): Promise<ConsoleMember | undefined> {
  const user = await readConsoleMember(db, input.session.userId, input.session.sessionId);
  if (!user) return undefined;
  if (sessionEndedBy(input.session, user)) return undefined;
  const memberships = user.memberships.map((m) => ({
    workspaceId: m.workspaceId,
    name: m.name,
    role: parseRole(m.role),
  }));
  const current = memberships.find((m) => m.workspaceId === input.workspaceId) ?? memberships[0];
  if (!current) return undefined;
  const env = input.environment;
  return {
    user: { id: user.id, email: user.email, name: user.name },
    workspace: { id: current.workspaceId, name: current.name },
    role: current.role,
    permissions: {
      write: can(current.role, "write", env),
      credentials: can(current.role, "credentials", env),
      personal_data: can(current.role, "personal_data", env),
      team: can(current.role, "team", env),
      team_owner: can(current.role, "team_owner", env),
    },
    memberships,
    isOperator: user.isOperator,
  };
}
