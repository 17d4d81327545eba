// The hosted and simulator pages' route handlers, called in-process against the real database.
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { call } from "@/lib/testing/router";
import { eventTypes, makeVerifyingApp } from "@/lib/testing/verifications";

const form = (fields: Record<string, string>, extra: Record<string, string> = {}) => ({
  headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin", ...extra },
  rawBody: new URLSearchParams(fields).toString(),
});

async function session(
  providerId: string,
  body: Record<string, unknown> = {},
  env: "sandbox" | "production" = "sandbox",
) {
  const app = await makeVerifyingApp([providerId], env);
  await getDb().app.update({
    where: { id: app.app.clientId },
    data: { redirectUris: ["https://shop.example/return"] },
  });
  const started = await app.start({ providerId, ...body });
  expect(started.status).toBe(201);
  return { app, id: started.body.verificationId as string };
}

const statusOf = async (id: string) =>
  (await getDb().verification.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;

describe("GET /verify/{id}/status", () => {
  it("is the status without personal data, then — for the page's own browser — where to go once ended", async () => {
    const { id } = await session("passport", { redirect_uri: "https://shop.example/return", state: "s1" });
    const browser = new CookieJar();
    // the hosted page sends the first browser that opens it through /bind
    expect((await browser.call("GET", `/verify/${id}/bind`)).headers.getSetCookie()).toHaveLength(1);
    const open = await browser.call("GET", `/verify/${id}/status`);
    expect(open.status).toBe(200);
    expect(open.body).toEqual({ status: "awaiting_user_action" });
    expect(open.headers.get("cache-control")).toContain("no-store");

    expect((await call("POST", `/verify/${id}/cancel`, form({}))).status).toBe(303);
    const ended = await browser.call("GET", `/verify/${id}/status`);
    expect(ended.body.status).toBe("cancelled");
    expect(ended.body.reason).toBe("cancelled_by_user");
    expect(ended.body.next).toBe(`/verify/${id}/return`);
    // another browser sees the same status, without anywhere to go
    expect((await call("GET", `/verify/${id}/status`)).body).toEqual({
      status: "cancelled",
      reason: "cancelled_by_user",
    });
    const returned = await browser.call("GET", ended.body.next);
    const next = new URL(returned.headers.get("location")!);
    expect(`${next.origin}${next.pathname}`).toBe("https://shop.example/return");
    expect(next.searchParams.get("status")).toBe("cancelled");
    expect(next.searchParams.get("state")).toBe("s1");
  });

  it("is 404 for unknown and malformed ids", async () => {
    expect((await call("GET", "/verify/ver_0000000000000000000000000/status")).status).toBe(404);
    expect((await call("GET", "/verify/not-an-id/status")).status).toBe(404);
  });
});

describe("POST /verify/{id}/cancel", () => {
  it("cancels as the end-user (verification.workflow.cancelled, by user)", async () => {
    const { id } = await session("passport");
    const response = await call("POST", `/verify/${id}/cancel`, form({}));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/verify/${id}`);
    expect(await statusOf(id)).toBe("cancelled");
    const event = await getDb().verificationEvent.findFirstOrThrow({
      where: { verificationId: id, type: "verification.workflow.cancelled" },
    });
    expect(JSON.stringify(event.payload)).toContain('"cancelledBy":"user"');
    // a second Cancel of the ended session changes nothing
    expect((await call("POST", `/verify/${id}/cancel`, form({}))).status).toBe(303);
    expect((await eventTypes(id)).filter((t) => t === "verification.workflow.cancelled")).toHaveLength(1);
  });

  it("refuses a cross-site post and writes nothing", async () => {
    const { id } = await session("passport");
    const before = await eventTypes(id);
    const bySite = await call("POST", `/verify/${id}/cancel`, form({}, { "sec-fetch-site": "cross-site" }));
    expect(bySite.status).toBe(403);
    const byOrigin = await call("POST", `/verify/${id}/cancel`, {
      headers: { origin: "https://evil.example", host: "localhost:3000" },
    });
    expect(byOrigin.status).toBe(403);
    expect(await statusOf(id)).toBe("awaiting_user_action");
    expect(await eventTypes(id)).toEqual(before);
  });
});

describe("POST /verify/{id}/push", () => {
  it("refuses an identifier that does not fit, with a flag and not the value in the URL", async () => {
    const { id } = await session("digital_id_app", { flowType: "push" });
    const response = await call("POST", `/verify/${id}/push`, form({ identifier: "12ab" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/verify/${id}?error=identifier`);
    expect(await statusOf(id)).toBe("awaiting_user_action");
    const row = await getDb().verification.findUniqueOrThrow({ where: { id } });
    expect(row.upstreamEncrypted).toBeNull();
  });

  it("takes a valid identifier sealed and moves the session to authenticating", async () => {
    const { id } = await session("digital_id_app", { flowType: "push" });
    const response = await call("POST", `/verify/${id}/push`, form({ identifier: "+33 612 345 678" }));
    expect(response.headers.get("location")).toBe(`/verify/${id}`);
    const row = await getDb().verification.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe("authenticating");
    expect(row.upstreamEncrypted).not.toContain("612");
    expect(await eventTypes(id)).toContain("verification.user.authentication_started");
  });
});

describe("POST /sandbox/verify/{id}/act", () => {
  it("approves through simulateSession and sends a redirect flow back to the hosted page", async () => {
    const { id } = await session("de_eid", { flowType: "redirect" });
    const response = await call(
      "POST",
      `/sandbox/verify/${id}/act`,
      form({ outcome: "success", flow: "redirect" }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/verify/${id}`);
    expect(await statusOf(id)).toBe("completed");
    expect(await eventTypes(id)).toEqual(
      expect.arrayContaining(["verification.user.authentication_succeeded", "verification.completed"]),
    );
  });

  it("answers a second-screen flow with the done view", async () => {
    const { id } = await session("passport");
    const response = await call(
      "POST",
      `/sandbox/verify/${id}/act`,
      form({ outcome: "failure", flow: "qr" }),
    );
    expect(response.headers.get("location")).toBe(`/sandbox/verify/${id}?flow=qr&done=1`);
    expect(await statusOf(id)).toBe("failed");
  });

  it("refuses an unknown outcome or identity and writes nothing", async () => {
    const { id } = await session("passport");
    const before = await eventTypes(id);
    const badOutcome = await call("POST", `/sandbox/verify/${id}/act`, form({ outcome: "teleport" }));
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.text).toContain("outcome");
    const badIdentity = await call(
      "POST",
      `/sandbox/verify/${id}/act`,
      form({ outcome: "success", identity: "nobody" }),
    );
    expect(badIdentity.status).toBe(400);
    expect(badIdentity.text).toContain("identity");
    expect(await statusOf(id)).toBe("awaiting_user_action");
    expect(await eventTypes(id)).toEqual(before);
  });

  it("does not exist for production sessions", async () => {
    const { id } = await session("passport", {}, "production");
    const response = await call(
      "POST",
      `/sandbox/verify/${id}/act`,
      form({ outcome: "success", flow: "qr" }),
    );
    expect(response.status).toBe(404);
    expect(await statusOf(id)).toBe("awaiting_user_action");
  });
});
