/**
 * withApi's authentication, in two steps around the one await: `authenticate` starts the check of
 * the definition's kind and hands back its promise; `admit` takes what it resolved to (role
 * check, request log) and gives the `auth` a handler sees.
 * - workspace: the Authorization header when one is sent (API keys), else the console session
 *   cookie (with the CSRF origin check on writes), else the API key's 401; then the role's
 *   permission (lib/auth/roles.ts): the definition's, else read for GET/HEAD and write otherwise;
 * - app: Basic client credentials; with `authWith`, the row a path parameter names is read in the
 *   credential's own statement (one round trip) — unless the parameter fails its format check,
 *   when the credential alone is read and the path check answers 404 after it;
 * - operator: an operator key, else an operator's console session (CSRF check on writes), else
 *   the operator key's 401; anyone else's session is 403;
 * - none: nothing.
 */
import { authenticateApp, authenticateAppWith, type AppAuth } from "../../auth/app-credentials";
import {
  checkSameOrigin,
  hasSessionCookie,
  readSessionCookie,
  resolveSessionMember,
  resolveSessionOperator,
} from "../../auth/console/credential";
import { authenticateOperator, type OperatorAuth } from "../../auth/operator-keys";
import { can, PERMISSION_LABEL, type TPermission } from "../../auth/roles";
import { authenticateWorkspace, type WorkspaceAuth } from "../../auth/workspace-keys";
import type { Db } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { ApiError } from "../../errors";
import { clientIp } from "../../rate-limit";
import { isValidPathParam } from "../validation";
import { logCaller, type TRequestLog } from "./request-log";
import type { TApiRoute } from "./route";

export type TCaller = WorkspaceAuth | AppAuth | OperatorAuth;
/** What a credential check resolves to: the caller, or (`authWith`) the caller and the row. */
export type TCredentials = TCaller | { auth: AppAuth; row: unknown };

/**
 * Starts the credential check the route's definition asks for; null when it asks for none. Not
 * async: it hands back the check's own promise, so the request waits once.
 */
export function authenticate(
  route: TApiRoute,
  db: Db,
  request: Request,
  env: TEnvironment,
  params: Record<string, string>,
): Promise<TCredentials> | null {
  switch (route.def.auth) {
    case "workspace":
      return authenticateWorkspaceOrSession(db, request, request.headers.get("authorization"), env);
    case "app": {
      const authorization = request.headers.get("authorization");
      const ip = clientIp(request.headers);
      const { authWith } = route;
      const rowId = authWith ? params[authWith.param] : undefined;
      if (authWith && rowId !== undefined && isValidPathParam(authWith.param, rowId)) {
        return authenticateAppWith(db, authorization, env, ip, authWith, rowId);
      }
      return authenticateApp(db, authorization, env, ip);
    }
    case "operator":
      return authenticateOperatorOrSession(db, request, request.headers.get("authorization"));
    default:
      return null;
  }
}

/**
 * The caller the credentials name, once their check passed: a workspace caller's role must allow
 * the route (403 RESOURCE_FORBIDDEN before anything is logged as theirs); the request log names
 * the caller.
 */
export function admit(
  route: TApiRoute,
  method: string,
  credentials: TCredentials,
  log: TRequestLog,
): TCaller {
  const auth = "auth" in credentials ? credentials.auth : credentials;
  if (auth.kind === "workspace") {
    authorizeRole(auth, route.def.permission ?? (method === "GET" || method === "HEAD" ? "read" : "write"));
  }
  logCaller(log, auth);
  return auth;
}

/** The row `authWith` read with the credential (null: none); undefined when none was read. */
export function rowOf(credentials: TCredentials): unknown {
  return "auth" in credentials ? credentials.row : undefined;
}

/**
 * A workspace credential: the Authorization header when one is sent (API keys), else the
 * console session cookie (with the CSRF check on writes), else the API key's 401.
 */
export async function authenticateWorkspaceOrSession(
  db: Db,
  request: Request,
  authorization: string | null,
  env: TEnvironment,
): Promise<WorkspaceAuth> {
  const cookies = request.headers.get("cookie");
  if (authorization !== null || !hasSessionCookie(cookies)) {
    return authenticateWorkspace(db, authorization, env, clientIp(request.headers));
  }
  const claims = await readSessionCookie(cookies);
  if (!claims) throw new ApiError("INVALID_SESSION", "Your console session has ended. Sign in again");
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") checkSameOrigin(request);
  const member = await resolveSessionMember(db, claims, request.headers.get("x-workspace-id"));
  return {
    kind: "workspace",
    workspaceId: member.workspaceId,
    environment: env,
    role: member.role,
    actor: { type: "user", id: member.userId, name: member.name ?? member.email },
  };
}

/**
 * An operator credential: the Authorization header when one is sent (operator keys), else an
 * operator's session cookie (CSRF check on writes), else the operator key's 401. A session of
 * anyone but an operator is 403.
 */
export async function authenticateOperatorOrSession(
  db: Db,
  request: Request,
  authorization: string | null,
): Promise<OperatorAuth> {
  const cookies = request.headers.get("cookie");
  if (authorization !== null || !hasSessionCookie(cookies)) {
    return authenticateOperator(db, authorization, clientIp(request.headers));
  }
  const claims = await readSessionCookie(cookies);
  if (!claims) throw new ApiError("INVALID_SESSION", "Your session has ended. Sign in again");
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") checkSameOrigin(request);
  const operator = await resolveSessionOperator(db, claims);
  return { kind: "operator", userId: operator.userId, keyId: null, via: "session" };
}

/** 403 RESOURCE_FORBIDDEN unless the workspace caller's role may do `permission`. */
export function authorizeRole(auth: WorkspaceAuth, permission: TPermission): void {
  if (!can(auth.role, permission, auth.environment)) {
    throw new ApiError(
      "RESOURCE_FORBIDDEN",
      `Your role (${auth.role}) may not ${PERMISSION_LABEL[permission]}${
        permission === "credentials" ? ` (${auth.environment})` : ""
      }`,
    );
  }
}
