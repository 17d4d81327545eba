import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { startHttpServer, type TTestServer } from "@/lib/testing/http-server";
import { bearer, call } from "@/lib/testing/router";
import { makeVerifyingApp } from "@/lib/testing/verifications";

// Instance A runs in this process; instance B is a separate Node process (its own Prisma client,
// key cache and module instances) on the same database. Both sit behind one PUBLIC_URL, as
// instances behind a load balancer do.
const REDIRECT = "https://rp.example.com/cb";
let a: TTestServer;
let b: ChildProcess;
let bOrigin: string;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  a = await startHttpServer();
  process.env.PUBLIC_URL = a.origin;
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, "..", "..", "..");
  b = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "lib/testing/http-server.ts")], {
    cwd: root,
    env: { ...process.env, IDV_TEST_PORT: String(port), PUBLIC_URL: a.origin, IDV_VALIDATE_RESPONSES: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  bOrigin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("instance B did not start")), 20_000);
    b.stdout!.on("data", (chunk: Buffer) => {
      const m = /LISTENING (\S+)/.exec(chunk.toString());
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
});

afterAll(async () => {
  b?.kill("SIGTERM");
  await a?.close();
});

it("/auth on one instance, /token, /userinfo and /jwks on another", async () => {
  const t = await makeVerifyingApp(["passport"]);
  await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
    headers: bearer(t.ws.keys.sandbox),
    body: { redirectUris: [REDIRECT], pkceRequired: false },
  });
  const q = new URLSearchParams({
    client_id: t.app.clientId,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "openid",
    provider: "passport",
    nonce: "n-42",
  });
  // one browser: /auth and the hosted page on A, the resume on B
  const browser = new CookieJar();
  const started = await browser.fetch(`${a.origin}/oidc/sandbox/auth?${q}`);
  const handoff = started.headers.get("location")!;
  const id = new URL(handoff).pathname.split("/")[2]!;
  await browser.fetch(handoff);
  await t.simulate(id, { outcome: "success" });
  const status = (await (await browser.fetch(`${a.origin}/verify/${id}/status`)).json()) as { next: string };
  // B answers on the same origin (behind one load balancer): the browser's cookie applies
  const next = new URL(status.next);
  const resumed = await fetch(`${bOrigin}${next.pathname}${next.search}`, {
    redirect: "manual",
    headers: { cookie: browser.header(status.next)! },
  });
  const code = new URL(resumed.headers.get("location")!).searchParams.get("code")!;

  const res = await fetch(`${bOrigin}/oidc/sandbox/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: t.creds.authorization },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT }),
  });
  expect(res.status).toBe(200);
  const tokens = (await res.json()) as { id_token: string; access_token: string };
  const issuer = `${a.origin}/oidc/sandbox`;
  // B's key may be new to A and the other way round: both publish every key from the database
  for (const origin of [a.origin, bOrigin]) {
    const { payload } = await jwtVerify(
      tokens.id_token,
      createRemoteJWKSet(new URL(`${origin}/oidc/sandbox/jwks`)),
      {
        issuer,
        audience: t.app.clientId,
      },
    );
    expect(payload.nonce).toBe("n-42");
  }
  const ui = await fetch(`${a.origin}/oidc/sandbox/userinfo`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  expect(ui.status).toBe(200);
  // the code was consumed in the shared database: the other instance refuses it
  const again = await fetch(`${a.origin}/oidc/sandbox/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: t.creds.authorization },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT }),
  });
  expect(again.status).toBe(400);
  expect(((await again.json()) as { error: string }).error).toBe("invalid_grant");
  const revoked = await fetch(`${bOrigin}/oidc/sandbox/userinfo`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  expect(revoked.status).toBe(401);
});
