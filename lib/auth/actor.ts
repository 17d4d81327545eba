/**
 * Who did something — the one actor shape of the audit trail (`audit_events.actor_type` /
 * `actor_id`). Derive it from the credential that authenticated the request, never build it by
 * hand at a call site:
 * - `workspaceActor(auth)`: a workspace API key or console user (`api_key` / `user`);
 * - `operatorActor(auth)`: an operator, named by their user id whether they used an operator key
 *   or a console session;
 * - `userActor(id)`: a console user acting outside a workspace credential (sign-up, accepting an
 *   invitation);
 * - `cliActor(id)`: the admin CLI acting for a user;
 * - `SYSTEM_ACTOR`: background jobs and protocol flows with no human behind them.
 */
import type { TEnvironment } from "../environments";
import type { OperatorAuth } from "./operator-keys";
import type { WorkspaceAuth } from "./workspace-keys";

export type TActor =
  | { type: "api_key"; id: string }
  | { type: "user"; id: string }
  | { type: "operator"; id: string }
  | { type: "cli"; id?: string | null }
  | { type: "system"; id?: null };

export type TActorType = TActor["type"];

/**
 * A workspace credential's request as the workspace services take it (apps, workflows, webhooks,
 * custom domains, production tests): the credential and the request id, for `workspaceAudit`.
 */
export interface WorkspaceActor {
  auth: WorkspaceAuth;
  requestId: string;
}

/**
 * An operator's request as the back-office services take it (activation review, production
 * tests): the credential, the environment of the URL and the request id, for `operatorAudit`.
 */
export interface OperatorActor {
  auth: OperatorAuth;
  env: TEnvironment;
  requestId: string;
}

export const SYSTEM_ACTOR: TActor = { type: "system" };

export function workspaceActor(auth: Pick<WorkspaceAuth, "actor">): TActor {
  return auth.actor.type === "user"
    ? { type: "user", id: auth.actor.id }
    : { type: "api_key", id: auth.actor.id };
}

export function operatorActor(auth: Pick<OperatorAuth, "userId">): TActor {
  return { type: "operator", id: auth.userId };
}

export function userActor(userId: string): TActor {
  return { type: "user", id: userId };
}

export function cliActor(userId?: string): TActor {
  return userId === undefined ? { type: "cli" } : { type: "cli", id: userId };
}
