/** withApi's request log step: what the row says, and that a request without an environment writes none. */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { WorkspaceAuth } from "../../auth/workspace-keys";
import { appendRequestLog } from "../../request-log/writer";
import type { TOutcome, TRequestScope } from "../pipeline";
import { logCaller, logPathIds, openRequestLog, type TRequestLog } from "./request-log";

vi.mock("../../request-log/writer", () => ({ appendRequestLog: vi.fn() }));

function scopeOf(path: string): { scope: TRequestScope; done: (outcome: TOutcome) => void } {
  const listeners: ((outcome: TOutcome) => void)[] = [];
  const scope: TRequestScope = {
    requestId: "req_1",
    url: new URL(`http://localhost${path}?secret=1`),
    method: "POST",
    onDone: (listener) => listeners.push(listener),
  };
  return { scope, done: (outcome) => listeners.forEach((l) => l(outcome)) };
}

const workspace = (actor: WorkspaceAuth["actor"]): WorkspaceAuth => ({
  kind: "workspace",
  workspaceId: "wsp_1",
  environment: "sandbox",
  role: "admin",
  actor,
});

beforeEach(() => {
  vi.mocked(appendRequestLog).mockClear();
});

describe("openRequestLog", () => {
  it("appends one row once the request is done: the path without its query, the outcome, the caller", () => {
    const { scope, done } = scopeOf("/api/sandbox/v1/verifications");
    const entry = openRequestLog(new Request("http://localhost/x", { method: "post" }), scope);
    entry.environment = "sandbox";
    logCaller(entry, { kind: "app", clientId: "app_1", workspaceId: "wsp_1", environment: "sandbox" });
    entry.verificationId = "ver_1";
    expect(appendRequestLog).not.toHaveBeenCalled();
    done({ status: 201, errorCode: null, ms: 7 });
    expect(appendRequestLog).toHaveBeenCalledTimes(1);
    expect(vi.mocked(appendRequestLog).mock.calls[0]![1]).toEqual({
      id: "req_1",
      workspaceId: "wsp_1",
      environment: "sandbox",
      method: "POST",
      path: "/api/sandbox/v1/verifications",
      status: 201,
      durationMs: 7,
      errorCode: null,
      credentialType: "app",
      credentialId: "app_1",
      credentialName: null,
      appId: "app_1",
      verificationId: "ver_1",
      createdAt: expect.any(Date),
    });
  });

  it("names no one when the request failed before the caller was known", () => {
    const { scope, done } = scopeOf("/api/production/v1/apps");
    const entry = openRequestLog(new Request("http://localhost/x"), scope);
    entry.environment = "production";
    done({ status: 401, errorCode: "INVALID_CREDENTIALS", ms: 1 });
    expect(vi.mocked(appendRequestLog).mock.calls[0]![1]).toMatchObject({
      workspaceId: null,
      credentialType: "none",
      credentialId: null,
      appId: null,
      verificationId: null,
      errorCode: "INVALID_CREDENTIALS",
    });
  });

  it("writes nothing for a request whose environment is unknown", () => {
    const { scope, done } = scopeOf("/api/staging/v1/apps");
    openRequestLog(new Request("http://localhost/x"), scope);
    done({ status: 404, errorCode: "ROUTE_NOT_FOUND", ms: 1 });
    expect(appendRequestLog).not.toHaveBeenCalled();
  });
});

describe("logPathIds", () => {
  it("takes the app and the verification the path names, unless the log could not store them", () => {
    const entry: TRequestLog = {};
    logPathIds(entry, { clientId: "app_1", verificationId: "ver_1" });
    expect(entry).toEqual({ appId: "app_1", verificationId: "ver_1" });
    logPathIds(entry, { clientId: `app_${"x".repeat(61)}`, verificationId: "ver_\u0000" });
    expect(entry).toEqual({ appId: undefined, verificationId: undefined });
    logPathIds(entry, { clientId: `app_${"x".repeat(60)}` });
    expect(entry.appId).toHaveLength(64);
  });
});

describe("logCaller", () => {
  it("a workspace API key or console session, by its actor", () => {
    const key: TRequestLog = {};
    logCaller(key, workspace({ type: "api_key", id: "key_1", name: "CI" }));
    expect(key).toEqual({
      workspaceId: "wsp_1",
      credentialType: "api_key",
      credentialId: "key_1",
      credentialName: "CI",
    });
    const session: TRequestLog = {};
    logCaller(session, workspace({ type: "user", id: "usr_1", name: "Anna" }));
    expect(session).toMatchObject({
      credentialType: "session",
      credentialId: "usr_1",
      credentialName: "Anna",
    });
  });

  it("an app, over the app the path named; an operator without a workspace", () => {
    const app: TRequestLog = { appId: "app_typed" };
    logCaller(app, { kind: "app", clientId: "app_1", workspaceId: "wsp_1", environment: "production" });
    expect(app).toEqual({
      workspaceId: "wsp_1",
      credentialType: "app",
      credentialId: "app_1",
      appId: "app_1",
    });
    const operator: TRequestLog = {};
    logCaller(operator, { kind: "operator", userId: "usr_op", keyId: null, via: "session" });
    expect(operator).toEqual({ credentialType: "operator", credentialId: "usr_op" });
  });
});
