/** Test helpers for verification sessions: apps with providers activated, sessions, their events. */
import { kysely } from "../db/client";
import { connectTestProviders } from "./connections";
import { makeApp, makeWorkspace } from "./factories";
import { basic, call } from "./router";

export type TEnv = "sandbox" | "production";

/**
 * Marks providers activated and enabled for an app (as a finished activation would); for a
 * production app, also connects those without a production connection (connectTestProviders), so
 * that its sessions can start — `{ connect: false }` leaves them not connected.
 */
export async function activateProviders(
  clientId: string,
  providerIds: string[],
  options: { connect?: boolean } = {},
): Promise<void> {
  const app = await kysely()
    .selectFrom("apps")
    .select("environment")
    .where("id", "=", clientId)
    .executeTakeFirstOrThrow();
  if (app.environment === "production" && options.connect !== false) await connectTestProviders(providerIds);
  for (const providerId of providerIds) {
    const now = new Date();
    await kysely()
      .insertInto("appProviders")
      .values({
        appId: clientId,
        providerId,
        status: "activated",
        enabled: true,
        activatedAt: now,
        updatedAt: now,
      })
      .onConflict((oc) =>
        oc
          .columns(["appId", "providerId"])
          .doUpdateSet({ status: "activated", enabled: true, activatedAt: now, updatedAt: now }),
      )
      .execute();
  }
}

/**
 * A workspace with one app whose listed providers are usable (in production: connected, unless
 * `{ connect: false }`), and App API helpers for it.
 */
export async function makeVerifyingApp(
  providerIds: string[] = [],
  env: TEnv = "sandbox",
  options: { connect?: boolean } = {},
) {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys[env], env);
  await activateProviders(app.clientId, providerIds, options);
  const creds = basic(app.clientId, app.clientSecret);
  const base = `/api/${env}/v1`;
  return {
    ws,
    app,
    creds,
    start: (body: Record<string, unknown>) => call("POST", `${base}/verifications`, { headers: creds, body }),
    status: (id: string) => call("GET", `${base}/verifications/${id}`, { headers: creds }),
    cancel: (id: string) => call("DELETE", `${base}/verifications/${id}`, { headers: creds }),
    userinfo: (id: string) => call("GET", `${base}/verifications/${id}/userinfo`, { headers: creds }),
    evidence: (id: string) => call("GET", `${base}/verifications/${id}/evidence`, { headers: creds }),
    simulate: (id: string, body: Record<string, unknown>) =>
      call("POST", `${base}/sandbox/verifications/${id}/simulate`, { headers: creds, body }),
  };
}

/** The session's events (whole rows), in the order they were recorded. */
export function sessionEvents(verificationId: string) {
  return kysely()
    .selectFrom("verificationEvents")
    .selectAll()
    .where("verificationId", "=", verificationId)
    .orderBy("seq", "asc")
    .execute();
}

/** The event types recorded for a session, in order. */
export async function eventTypes(verificationId: string): Promise<string[]> {
  const rows = await kysely()
    .selectFrom("verificationEvents")
    .select("type")
    .where("verificationId", "=", verificationId)
    .orderBy("seq", "asc")
    .execute();
  return rows.map((r) => r.type);
}
