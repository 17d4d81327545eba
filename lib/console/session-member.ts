/**
 * The first render of a console page: who is signed in and which workspace they see. Server
 * components call this with the session's user id (from next-auth) and the workspace cookie;
 * every later read and write goes through the REST API.
 */
import { can, parseRole, type TRole } from "../auth/roles";
import type { SessionClaims } from "../auth/session-claims";
import { sessionEndedBy } from "../auth/sessions";
import type { Tx } from "../db/client";
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

function loadUser(db: Tx, userId: string) {
  return db.user.findUnique({
    where: { id: userId },
    select: {
      id: true,
      email: true,
      name: true,
      sessionsValidFrom: true,
      isOperator: true,
      memberships: {
        orderBy: { createdAt: "asc" },
        select: { role: true, workspace: { select: { id: true, name: true } } },
      },
    },
  });
}

/** undefined when the user is gone, the session has ended (lib/auth/sessions.ts), or in no workspace. */
export async function loadConsoleMember(
  db: Tx,
  input: { session: SessionClaims; workspaceId?: string; environment: TEnvironment },
): Promise<ConsoleMember | undefined> {
  const [user, revoked] = await Promise.all([
    loadUser(db, input.session.userId),
    db.revokedSession.findUnique({ where: { sid: input.session.sessionId }, select: { sid: true } }),
  ]);
  if (!user) return undefined;
  if (sessionEndedBy(input.session, { sessionsValidFrom: user.sessionsValidFrom, revoked: revoked !== null }))
    return undefined;
  const memberships = user.memberships.map((m) => ({
    workspaceId: m.workspace.id,
    name: m.workspace.name,
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
