/**
 * withApi's request log (the rows the console's request log shows, lib/request-log/writer.ts):
 * opened first, filled in by the later steps (the ids the path names, the environment, the
 * caller, the verification a handler names) and written once the pipeline has the response —
 * only when the environment is known (a request to an unknown environment belongs to no one's log).
 */
import type { AppAuth } from "../../auth/app-credentials";
import type { OperatorAuth } from "../../auth/operator-keys";
import type { WorkspaceAuth } from "../../auth/workspace-keys";
import { kysely } from "../../db/client";
import type { RequestLogEntry } from "../../request-log/entry";
import { appendRequestLog } from "../../request-log/writer";
import type { TRequestScope } from "../pipeline";
import { isSafeText } from "../safe-text";

export type TRequestLog = Partial<RequestLogEntry>;

/** An empty entry, appended to the request log when the request is done (if it has an environment). */
export function openRequestLog(request: Request, scope: TRequestScope): TRequestLog {
  const entry: TRequestLog = {};
  scope.onDone(({ status, errorCode, ms }) => {
    if (!entry.environment) return;
    appendRequestLog(kysely, {
      id: scope.requestId,
      workspaceId: entry.workspaceId ?? null,
      environment: entry.environment,
      method: request.method,
      path: scope.url.pathname,
      status,
      durationMs: ms,
      errorCode,
      credentialType: entry.credentialType ?? "none",
      credentialId: entry.credentialId ?? null,
      credentialName: entry.credentialName ?? null,
      appId: entry.appId ?? null,
      verificationId: entry.verificationId ?? null,
      createdAt: new Date(),
    });
  });
  return entry;
}

/**
 * A path's id as typed, unless the log could not store it (a NUL fails the whole batch of rows)
 * or it is absurdly long.
 */
function loggable(value: string | undefined): string | undefined {
  return value && value.length <= 64 && isSafeText(value) ? value : undefined;
}

/** The app and the verification the path names, before anything is checked. */
export function logPathIds(entry: TRequestLog, params: Record<string, string>): void {
  entry.appId = loggable(params.clientId);
  entry.verificationId = loggable(params.verificationId);
}

/** Who called: an API key or a console session of a workspace, an app, an operator. */
export function logCaller(entry: TRequestLog, auth: WorkspaceAuth | AppAuth | OperatorAuth): void {
  if (auth.kind === "workspace") {
    entry.workspaceId = auth.workspaceId;
    entry.credentialType = auth.actor.type === "user" ? "session" : "api_key";
    entry.credentialId = auth.actor.id;
    entry.credentialName = auth.actor.name;
  } else if (auth.kind === "app") {
    entry.workspaceId = auth.workspaceId;
    entry.credentialType = "app";
    entry.credentialId = auth.clientId;
    entry.appId = auth.clientId;
  } else {
    entry.credentialType = "operator";
    entry.credentialId = auth.userId;
  }
}
