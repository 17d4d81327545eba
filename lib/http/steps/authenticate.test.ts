/**
 * withApi's authentication step on its own, the credential checks replaced: which check each
 * kind of route starts (and with which row), what `admit` makes of the result (role check, request
 * log) and the console-session fallbacks of workspace and operator routes.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { authenticateApp, authenticateAppWith, type TAppRowRead } from "../../auth/app-credentials";
import {
  checkSameOrigin,
  hasSessionCookie,
  readSessionCookie,
  resolveSessionMember,
  resolveSessionOperator,
} from "../../auth/console/credential";
import { authenticateOperator } from "../../auth/operator-keys";
import { authenticateWorkspace, type WorkspaceAuth } from "../../auth/workspace-keys";
import type { Db } from "../../db/client";
import { ApiError } from "../../errors";
import type { EndpointDef } from "../endpoint";
import { admit, authenticate, authorizeRole, rowOf } from "./authenticate";
import type { TRequestLog } from "./request-log";
import { json } from "./response";
import { prepareRoute } from "./route";

vi.mock("../../auth/app-credentials", () => ({ authenticateApp: vi.fn(), authenticateAppWith: vi.fn() }));
vi.mock("../../auth/workspace-keys", () => ({ authenticateWorkspace: vi.fn() }));
vi.mock("../../auth/operator-keys", () => ({ authenticateOperator: vi.fn() }));
vi.mock("../../auth/console/credential", () => ({
  checkSameOrigin: vi.fn(),
  hasSessionCookie: vi.fn((cookies: string | null) => (cookies ?? "").includes("session=")),
  readSessionCookie: vi.fn(),
  resolveSessionMember: vi.fn(),
  resolveSessionOperator: vi.fn(),
}));

const db = {} as Db;
const VER = `ver_${"0".repeat(26)}`;
const APP = { kind: "app", clientId: "app_1", workspaceId: "wsp_1", environment: "sandbox" } as const;
const read = { param: "verificationId", statement: {} } as unknown as TAppRowRead<unknown>;
const def = (over: Partial<EndpointDef>): EndpointDef => ({
  method: "GET",
  path: "/v1/verifications/{verification_id}",
  operationId: "op",
  summary: "",
  tag: "",
  auth: "app",
  responses: {},
  ...over,
});
const handler = async () => json(200);
const request = (init: RequestInit & { headers?: Record<string, string> } = {}) =>
  new Request("http://localhost/api/sandbox/v1/x", {
    ...init,
    headers: { "x-forwarded-for": "203.0.113.9", ...init.headers },
  });
const workspace = (role: WorkspaceAuth["role"], environment: WorkspaceAuth["environment"] = "sandbox") =>
  ({
    kind: "workspace",
    workspaceId: "wsp_1",
    environment,
    role,
    actor: { type: "api_key", id: "key_1", name: "CI" },
  }) satisfies WorkspaceAuth;

beforeEach(() => {
  vi.clearAllMocks();
});

describe("authenticate: the check the route's kind asks for", () => {
  it("app with `authWith`: the credential and the row in one statement, by the path's id", async () => {
    vi.mocked(authenticateAppWith).mockResolvedValue({ auth: APP, row: { id: VER } });
    const route = prepareRoute(def({}), { authWith: read }, handler);
    const basic = { authorization: "Basic eA==" };
    const pending = authenticate(route, db, request({ headers: basic }), "sandbox", { verificationId: VER });
    expect(await pending).toEqual({ auth: APP, row: { id: VER } });
    expect(authenticateAppWith).toHaveBeenCalledWith(
      db,
      "Basic eA==",
      "sandbox",
      expect.anything(),
      read,
      VER,
    );
    expect(authenticateApp).not.toHaveBeenCalled();
  });

  it("app with `authWith` and an id off its format: the credential alone (the path check answers 404 after it)", async () => {
    vi.mocked(authenticateApp).mockResolvedValue(APP);
    const route = prepareRoute(def({}), { authWith: read }, handler);
    expect(await authenticate(route, db, request(), "production", { verificationId: "nope" })).toBe(APP);
    expect(authenticateApp).toHaveBeenCalledWith(db, null, "production", expect.anything());
    expect(authenticateAppWith).not.toHaveBeenCalled();
  });

  it("workspace and operator: their keys when an Authorization header is sent; none: nothing", async () => {
    vi.mocked(authenticateWorkspace).mockResolvedValue(workspace("admin"));
    vi.mocked(authenticateOperator).mockResolvedValue({
      kind: "operator",
      userId: "u",
      keyId: "k",
      via: "key",
    });
    const headers = { authorization: "Bearer sk", cookie: "session=1" };
    const ws = prepareRoute(def({ auth: "workspace" }), handler);
    await authenticate(ws, db, request({ headers }), "sandbox", {});
    expect(authenticateWorkspace).toHaveBeenCalledWith(db, "Bearer sk", "sandbox", expect.anything());
    const op = prepareRoute(def({ auth: "operator" }), handler);
    await authenticate(op, db, request({ headers }), "sandbox", {});
    expect(authenticateOperator).toHaveBeenCalledWith(db, "Bearer sk", expect.anything());
    expect(readSessionCookie).not.toHaveBeenCalled();
    expect(
      authenticate(prepareRoute(def({ auth: "none" }), handler), db, request(), "sandbox", {}),
    ).toBeNull();
  });

  it("workspace without a header: the console session, with the origin check on writes only", async () => {
    vi.mocked(readSessionCookie).mockResolvedValue({ sub: "usr_1" } as never);
    vi.mocked(resolveSessionMember).mockResolvedValue({
      workspaceId: "wsp_2",
      role: "viewer",
      userId: "usr_1",
      name: null,
      email: "anna@example.com",
    } as never);
    const route = prepareRoute(def({ auth: "workspace" }), handler);
    const headers = { cookie: "session=1", "x-workspace-id": "wsp_2" };
    expect(await authenticate(route, db, request({ headers }), "production", {})).toEqual({
      kind: "workspace",
      workspaceId: "wsp_2",
      environment: "production",
      role: "viewer",
      actor: { type: "user", id: "usr_1", name: "anna@example.com" },
    });
    expect(resolveSessionMember).toHaveBeenCalledWith(db, { sub: "usr_1" }, "wsp_2");
    expect(checkSameOrigin).not.toHaveBeenCalled();
    await authenticate(route, db, request({ method: "POST", headers }), "production", {});
    expect(checkSameOrigin).toHaveBeenCalledTimes(1);
    expect(authenticateWorkspace).not.toHaveBeenCalled();
  });

  it("a session cookie that no longer reads is 401 INVALID_SESSION (workspace and operator)", async () => {
    vi.mocked(readSessionCookie).mockResolvedValue(undefined);
    const headers = { cookie: "session=old" };
    for (const auth of ["workspace", "operator"] as const) {
      const route = prepareRoute(def({ auth }), handler);
      await expect(authenticate(route, db, request({ headers }), "sandbox", {})).rejects.toMatchObject({
        code: "INVALID_SESSION",
      });
    }
    expect(hasSessionCookie).toHaveBeenCalled();
  });

  it("operator without a header: an operator's console session", async () => {
    vi.mocked(readSessionCookie).mockResolvedValue({ sub: "usr_op" } as never);
    vi.mocked(resolveSessionOperator).mockResolvedValue({ userId: "usr_op" } as never);
    const route = prepareRoute(def({ auth: "operator" }), handler);
    expect(
      await authenticate(route, db, request({ headers: { cookie: "session=1" } }), "sandbox", {}),
    ).toEqual({
      kind: "operator",
      userId: "usr_op",
      keyId: null,
      via: "session",
    });
  });
});

describe("admit: the caller once the check passed", () => {
  it("checks a workspace caller's role (read for GET and HEAD, write otherwise) before logging it", () => {
    const route = prepareRoute(def({ auth: "workspace" }), handler);
    const log: TRequestLog = {};
    expect(admit(route, "GET", workspace("viewer"), log)).toEqual(workspace("viewer"));
    expect(log.credentialId).toBe("key_1");
    const refused: TRequestLog = {};
    expect(() => admit(route, "DELETE", workspace("viewer"), refused)).toThrow(
      "Your role (viewer) may not make changes",
    );
    expect(refused).toEqual({});
  });

  it("checks the definition's own permission", () => {
    const route = prepareRoute(def({ auth: "workspace", permission: "credentials" }), handler);
    expect(() => admit(route, "GET", workspace("developer", "production"), {})).toThrow(
      "Your role (developer) may not manage credentials in this environment (production)",
    );
    expect(admit(route, "GET", workspace("developer", "sandbox"), {}).kind).toBe("workspace");
  });

  it("gives an app its auth, with or without a row; the row comes separately", () => {
    const route = prepareRoute(def({}), { authWith: read }, handler);
    const log: TRequestLog = {};
    expect(admit(route, "GET", { auth: APP, row: null }, log)).toBe(APP);
    expect(log).toMatchObject({ credentialType: "app", appId: "app_1" });
    expect(rowOf({ auth: APP, row: null })).toBeNull();
    expect(rowOf({ auth: APP, row: { id: VER } })).toEqual({ id: VER });
    expect(rowOf(APP)).toBeUndefined();
  });
});

describe("authorizeRole", () => {
  it("is 403 RESOURCE_FORBIDDEN naming the role and what it may not do", () => {
    let thrown: unknown;
    try {
      authorizeRole(workspace("admin"), "team_owner");
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({
      code: "RESOURCE_FORBIDDEN",
      status: 403,
      message: "Your role (admin) may not grant or remove the owner role",
    });
    expect(() => authorizeRole(workspace("owner"), "team_owner")).not.toThrow();
  });
});
