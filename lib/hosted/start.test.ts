/**
 * /verify/{id}/start on its own (lib/hosted/start.ts), the database, the session's moves and the
 * sign-in driver replaced: which way each kind of session goes, and what the browser is sent.
 * The same route against a real database: app/(hosted)/verify/hosted.integration.test.ts (sandbox),
 * lib/verifications/saml.integration.test.ts and lib/connections/availability.integration.test.ts
 * (production).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { kysely } from "../db/client";
import { ApiError } from "../errors";
import { beginSignIn, sessionAnswerChannel } from "../verifications/sign-in";
import { readStartSession } from "../verifications/store/hosted";
import { leaveForProvider, mayStart } from "./session";
import { startVerification, toUpstream, type TStartSession } from "./start";
import { upstreamCookie } from "./upstream-cookie";

vi.mock("../db/client", () => ({ kysely: vi.fn() }));
vi.mock("../verifications/store/hosted", () => ({ readStartSession: vi.fn() }));
vi.mock("./session", () => ({ mayStart: vi.fn(), leaveForProvider: vi.fn() }));
vi.mock("../verifications/sign-in", () => ({ beginSignIn: vi.fn(), sessionAnswerChannel: vi.fn() }));

const ID = `ver_${"1".repeat(26)}`;
const findUnique = vi.mocked(readStartSession);
const db = {};
const session = (over: Partial<TStartSession> = {}): TStartSession => ({
  id: ID,
  environment: "production",
  providerId: "it_spid",
  flowType: "redirect",
  ...over,
});
const request = (cookie?: string) =>
  new Request(`http://localhost/verify/${ID}/start`, cookie ? { headers: { cookie } } : {});
const start = () => startVerification(request(), ID);

const publicUrl = process.env.PUBLIC_URL;
beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(kysely).mockReturnValue(db as never);
  vi.mocked(mayStart).mockResolvedValue(true);
});
afterEach(() => {
  if (publicUrl === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = publicUrl;
});

describe("startVerification", () => {
  it("sends a browser that may not start the session back to its page, before reading the session", async () => {
    vi.mocked(mayStart).mockResolvedValue(false);
    const res = await startVerification(request("idv_browser=s3cret; other=1"), ID);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/verify/${ID}`);
    expect(mayStart).toHaveBeenCalledWith(db, ID, "s3cret");
    expect(findUnique).not.toHaveBeenCalled();
  });

  it("reads the session's id, environment, provider and flow; none: the hosted 404 in text", async () => {
    findUnique.mockResolvedValue(undefined);
    const res = await start();
    expect(findUnique).toHaveBeenCalledWith(db, ID);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("Verification not found");
  });

  it("sandbox: starts the session and sends the browser to the simulator of its flow", async () => {
    findUnique.mockResolvedValue(session({ environment: "sandbox", flowType: "qr" }));
    const res = await start();
    expect(leaveForProvider).toHaveBeenCalledWith(db, ID);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/sandbox/verify/${ID}?flow=qr`);
    expect(sessionAnswerChannel).not.toHaveBeenCalled();
  });

  it("production: through the connection's sign-in, never the simulator", async () => {
    findUnique.mockResolvedValue(session());
    vi.mocked(sessionAnswerChannel).mockResolvedValue("redirect_query");
    vi.mocked(beginSignIn).mockResolvedValue({
      url: "https://idp.example/auth?state=x",
      answer: "redirect_query",
    });
    const res = await start();
    expect(res.headers.get("location")).toBe("https://idp.example/auth?state=x");
    expect(sessionAnswerChannel).toHaveBeenCalledWith(session());
    expect(leaveForProvider).not.toHaveBeenCalled();
  });
});

describe("toUpstream", () => {
  it("a redirect answer: to the upstream, with the cookie its callback finds the session by", async () => {
    vi.mocked(sessionAnswerChannel).mockResolvedValue("redirect_query");
    vi.mocked(beginSignIn).mockResolvedValue({ url: "https://idp.example/auth", answer: "redirect_query" });
    const res = await toUpstream(session());
    expect(beginSignIn).toHaveBeenCalledWith(ID);
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toBe(upstreamCookie(ID));
  });

  it("a form post answer (SAML, cross-site): no cookie, the RelayState finds the session", async () => {
    vi.mocked(sessionAnswerChannel).mockResolvedValue("form_post");
    vi.mocked(beginSignIn).mockResolvedValue({ url: "/verify/saml/post/x", answer: "form_post" });
    const res = await toUpstream(session());
    expect(res.headers.get("location")).toBe("/verify/saml/post/x");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("no adapter that signs in, or a sign-in it refuses: back to the page", async () => {
    vi.mocked(sessionAnswerChannel).mockResolvedValue(null);
    expect((await toUpstream(session())).headers.get("location")).toBe(`/verify/${ID}`);
    expect(beginSignIn).not.toHaveBeenCalled();
    vi.mocked(sessionAnswerChannel).mockResolvedValue("redirect_query");
    vi.mocked(beginSignIn).mockRejectedValue(new ApiError("VERIFICATION_TERMINAL", "ended"));
    const res = await toUpstream(session());
    expect(res.headers.get("location")).toBe(`/verify/${ID}`);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("leaves any other failure to the request pipeline", async () => {
    vi.mocked(sessionAnswerChannel).mockResolvedValue("redirect_query");
    vi.mocked(beginSignIn).mockRejectedValue(new Error("network down"));
    await expect(toUpstream(session())).rejects.toThrow("network down");
  });
});

describe("upstreamCookie", () => {
  it("carries the session id to /verify/callback for 30 minutes; Secure over https", () => {
    process.env.PUBLIC_URL = "http://localhost:3000";
    expect(upstreamCookie(ID)).toBe(
      `idv_verification=${ID}; Path=/verify; HttpOnly; SameSite=Lax; Max-Age=1800`,
    );
    process.env.PUBLIC_URL = "https://idv.example.com";
    expect(upstreamCookie(ID)).toBe(
      `idv_verification=${ID}; Path=/verify; HttpOnly; SameSite=Lax; Max-Age=1800; Secure`,
    );
  });
});
