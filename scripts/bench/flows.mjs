// The setup phase on our server and on the peer, through their real endpoints: sandbox apps
// (redirect URI, webhook to the benchmark's receiver), sessions, and authorization codes minted the
// way integrators get them —
//   REST: POST /v1/verifications (redirect_uri) → the end-user's browser opens the hosted page
//         (GET /verify/{id}/bind: binding cookie) → the sandbox provider completes it
//         (POST /v1/sandbox/verifications/{id}/simulate) → the browser asks for the return
//         (GET /verify/{id}/return) → 303 to redirect_uri?code=…;
//   OP:   GET /oidc/sandbox/auth (PKCE S256; idv_signin cookie) → GET /verify/{id}/bind?h=… →
//         simulate → GET /verify/{id}/status (the bound browser learns `next`) → GET next
//         (/oidc/sandbox/resume/…) → 303 to redirect_uri?code=…;
//   peer: GET /auth → /interaction/{uid} (auto sign-in and consent) → /auth/{uid} → code.
import { createHash, randomBytes } from "node:crypto";
import { EVENT_TYPES } from "../support/event-types.mjs";
import { basicAuth, call, CookieJar, expectStatus } from "../support/http.mjs";
import { log, pool } from "./util.mjs";

export const REDIRECT_URI = "https://rp.example.com/cb";
const API = "/api/sandbox/v1";

/** A sandbox app with our redirect URI and, when given, a webhook for every event type. */
export async function createApp(base, key, { name, webhookUrl }) {
  const bearer = `Bearer ${key}`;
  const app = expectStatus(
    await call(base, "POST", `${API}/apps`, { auth: bearer, body: { name } }),
    201,
    `creating the app "${name}" (is BENCH_KEY a sandbox workspace key of this server?)`,
  );
  expectStatus(
    await call(base, "PATCH", `${API}/apps/${app.clientId}`, {
      auth: bearer,
      body: {
        redirectUris: [REDIRECT_URI],
        ...(webhookUrl ? { webhookConfig: { url: webhookUrl, enabled: true, events: EVENT_TYPES } } : {}),
      },
    }),
    200,
    `configuring the app "${name}"`,
  );
  return { ...app, basic: basicAuth(app.clientId, app.clientSecret) };
}

export async function deleteApp(base, key, app) {
  await call(base, "DELETE", `${API}/apps/${app.clientId}`, { auth: `Bearer ${key}` });
}

/** Sends the app's test event; resolves true once the receiver has it (within `timeoutMs`). */
export async function webhookReaches(base, key, app, receiver, timeoutMs = 10_000) {
  const sent = await call(base, "POST", `${API}/apps/${app.clientId}/webhook-config/test`, {
    auth: `Bearer ${key}`,
  });
  if (sent.status >= 300) throw new Error(`sending the test event failed: ${sent.status} ${sent.text}`);
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const got = await receiver.ask("records", { clientId: app.clientId });
    if (got.some((r) => r.type === "webhook.test")) {
      await receiver.ask("records", { clientId: app.clientId, clear: true });
      return true;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

export async function createSession(base, app, extra = {}) {
  return call(base, "POST", `${API}/verifications`, {
    auth: app.basic,
    body: { providerId: "passport", ...extra },
  });
}

export async function simulate(base, app, id, outcome = "success") {
  return call(base, "POST", `${API}/sandbox/verifications/${id}/simulate`, {
    auth: app.basic,
    body: { outcome },
  });
}

const codeOf = (res) => {
  const location = res.headers?.get("location");
  return location ? new URL(location, "http://x").searchParams.get("code") : null;
};

/** One REST code through the real return flow; throws with the failing step. */
export async function mintRestCode(base, app) {
  const jar = new CookieJar();
  const started = await createSession(base, app, { redirect_uri: REDIRECT_URI });
  const id = expectStatus(started, 201, "REST code: POST /v1/verifications").verificationId;
  expectStatus(
    await call(base, "GET", `/verify/${id}/bind`, { jar }),
    303,
    "REST code: GET /verify/{id}/bind",
  );
  expectStatus(await simulate(base, app, id), 200, "REST code: simulate");
  const back = await call(base, "GET", `/verify/${id}/return`, { jar });
  expectStatus(back, 303, "REST code: GET /verify/{id}/return");
  const code = codeOf(back);
  if (!code) throw new Error(`REST code: the return carried no code (${back.headers.get("location")})`);
  return { code };
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** One code of our OpenID Provider through the browser flow; throws with the failing step. */
export async function mintOpCode(base, app) {
  const jar = new CookieJar();
  const { verifier, challenge } = pkce();
  const q = new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "openid",
    provider: "passport",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: randomBytes(8).toString("hex"),
  });
  const auth = await call(base, "GET", `/oidc/sandbox/auth?${q}`, { jar });
  expectStatus(auth, 303, "OP code: GET /oidc/sandbox/auth");
  const handoff = new URL(auth.headers.get("location"), base);
  const id = handoff.pathname.split("/")[2];
  if (!/^ver_/.test(id ?? "")) throw new Error(`OP code: /auth sent the browser to ${handoff}`);
  expectStatus(
    await call(base, "GET", handoff.toString(), { jar }),
    303,
    "OP code: GET /verify/{id}/bind?h=…",
  );
  expectStatus(await simulate(base, app, id), 200, "OP code: simulate");
  const status = expectStatus(
    await call(base, "GET", `/verify/${id}/status`, { jar }),
    200,
    "OP code: status",
  );
  if (!status.next)
    throw new Error(`OP code: the bound browser got no resume address (${JSON.stringify(status)})`);
  const resumed = await call(base, "GET", status.next, { jar });
  expectStatus(resumed, 303, "OP code: GET /oidc/sandbox/resume/…");
  const code = codeOf(resumed);
  if (!code) throw new Error(`OP code: the resume carried no code (${resumed.headers.get("location")})`);
  return { code, verifier };
}

/** One code of the peer through its authorization-code flow (auto sign-in). */
export async function mintPeerCode(peerBase, client) {
  const jar = new CookieJar();
  const { verifier, challenge } = pkce();
  const q = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0],
    response_type: "code",
    scope: "openid",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: randomBytes(8).toString("hex"),
  });
  let res = await call(peerBase, "GET", `/auth?${q}`, { jar });
  for (let i = 0; i < 5 && res.status === 303; i++) {
    const location = res.headers.get("location");
    if (location.startsWith(client.redirect_uris[0])) {
      const code = codeOf(res);
      if (code) return { code, verifier };
      break;
    }
    res = await call(peerBase, "GET", location, { jar });
  }
  throw new Error(`peer code: the flow ended with ${res.status} ${res.text?.slice(0, 200)}`);
}

/**
 * Mints up to `count` codes with `concurrency` flows at once, for at most `maxSeconds`. Stops at
 * the first failure (a 429 means the server's request limits for the hosted pages or /auth are
 * lower than what the benchmark needs: see docs/benchmarks.md). Returns the codes and why it
 * stopped early, if it did.
 */
export async function mintCodes(label, count, mint, { concurrency = 8, maxSeconds = 40 } = {}) {
  const codes = [];
  let failure;
  const started = performance.now();
  const until = Date.now() + maxSeconds * 1000;
  await pool(count, concurrency, async () => {
    if (failure || Date.now() > until) return false;
    try {
      codes.push({ ...(await mint()), at: Date.now() });
    } catch (err) {
      failure ??= err.message;
      return false;
    }
    return true;
  });
  const seconds = (performance.now() - started) / 1000;
  log(
    `${label}: ${codes.length} codes minted in ${seconds.toFixed(1)} s${failure ? ` — stopped: ${failure}` : ""}`,
  );
  if (!failure && codes.length < count)
    failure = `only ${codes.length} of ${count} codes within ${maxSeconds} s`;
  return { codes, failure, seconds };
}

/** Redeems one code at our OP /token (or the peer's); returns the token response. */
export async function redeemOpCode(base, tokenPath, auth, { code, verifier }) {
  return call(base, "POST", tokenPath, {
    auth,
    form: { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
  });
}

export function opTokenForm({ code, verifier }) {
  return new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  }).toString();
}

export function restTokenForm({ code }) {
  return new URLSearchParams({ grant_type: "authorization_code", code }).toString();
}
