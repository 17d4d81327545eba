// Apps and sessions of a fault-injection script, over the service's REST API (sandbox). Test tooling.
import { EVENT_TYPES } from "../support/event-types.mjs";
import { basicAuth, call, expectStatus } from "../support/http.mjs";

/** A sandbox app whose webhook posts every event type to `webhookUrl`. */
export async function createApp(base, key, { webhookUrl, redirectUris = [] }) {
  const bearer = `Bearer ${key}`;
  const app = expectStatus(
    await call(base, "POST", "/api/sandbox/v1/apps", { auth: bearer, body: { name: "Fault injection app" } }),
    201,
    "creating the app",
  );
  if (redirectUris.length)
    expectStatus(
      await call(base, "PATCH", `/api/sandbox/v1/apps/${app.clientId}`, {
        auth: bearer,
        body: { redirectUris },
      }),
      200,
      "setting the redirect URIs",
    );
  expectStatus(
    await call(base, "PATCH", `/api/sandbox/v1/apps/${app.clientId}/webhook-config`, {
      auth: bearer,
      body: { url: webhookUrl, enabled: true, events: EVENT_TYPES },
    }),
    200,
    "configuring the webhook",
  );
  return app;
}

/** A sandbox session driven to completion (6 events); on `simulateBase` when given. */
export async function completedSession(base, app, { simulateBase = base, redirectUri, bind = false } = {}) {
  const auth = basicAuth(app.clientId, app.clientSecret);
  const started = await call(base, "POST", "/api/sandbox/v1/verifications", {
    auth,
    body: { providerId: "passport", ...(redirectUri ? { redirect_uri: redirectUri } : {}) },
  });
  if (started.status !== 201) return { ok: false, step: "create", status: started.status };
  const id = started.body.verificationId;
  // the end-user's browser opens the hosted page first and so holds the return (lib/hosted/binding.ts)
  let cookie;
  if (bind) {
    const bound = await call(base, "GET", `/verify/${id}/bind`, { followRedirects: false });
    cookie = bound.headers?.get("set-cookie")?.split(";")[0];
    if (bound.status !== 303 || !cookie) return { ok: false, step: "bind", status: bound.status, id };
  }
  const done = await call(simulateBase, "POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, {
    auth,
    body: { outcome: "success" },
  });
  if (done.status !== 200) return { ok: false, step: "simulate", status: done.status, id };
  return { ok: true, id, cookie };
}
