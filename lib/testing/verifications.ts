/** Test helpers for verification sessions: apps with providers activated, sessions, their events. */
import { prisma } from "./prisma";
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
  const app = await prisma().app.findUniqueOrThrow({
    where: { id: clientId },
    select: { environment: true },
  });
  if (app.environment === "production" && options.connect !== false) await connectTestProviders(providerIds);
  for (const providerId of providerIds) {
    await prisma().appProvider.upsert({
      where: { appId_providerId: { appId: clientId, providerId } },
      create: { appId: clientId, providerId, status: "activated", enabled: true, activatedAt: new Date() },
      update: { status: "activated", enabled: true, activatedAt: new Date() },
    });
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

/** The event types recorded for a session, in order. */
export async function eventTypes(verificationId: string): Promise<string[]> {
  const rows = await prisma().verificationEvent.findMany({
    where: { verificationId },
    orderBy: { seq: "asc" },
    select: { type: true },
  });
  return rows.map((r) => r.type);
}
