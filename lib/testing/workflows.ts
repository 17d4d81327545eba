/** Test helpers for workflows: valid bodies, workflows through the API, providers added to an app. */
import { kysely } from "../db/client";
import { makeApp, makeWorkspace } from "./factories";
import { bearer, call } from "./router";

type Env = "sandbox" | "production";

/** A workspace with one sandbox app: the workspace's sandbox key, the app's API path, Bearer headers. */
export async function makeWorkflowsApp() {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys.sandbox);
  const key = ws.keys.sandbox;
  const base = `/api/sandbox/v1/apps/${app.clientId}`;
  return { ws, app, key, base, headers: bearer(key) };
}

export interface TNodeBody {
  id: string;
  type: string;
  next?: string | null;
  then?: string;
  else?: string;
  config?: Record<string, unknown>;
}

/** request → verification → check-min-loa → response: valid for any app that has passport. */
export function workflowBody(overrides: Record<string, unknown> = {}): {
  name: string;
  entryNodeId: string;
  nodes: TNodeBody[];
  [k: string]: unknown;
} {
  return {
    name: "Custom workflow",
    entryNodeId: "start",
    nodes: [
      { id: "start", type: "request", next: "verify" },
      {
        id: "verify",
        type: "verification",
        next: "loa",
        config: { channel: "api", claims: ["given_name", "family_name", "email"] },
      },
      { id: "loa", type: "check-min-loa", next: "end", config: { minLoa: 2 } },
      { id: "end", type: "response" },
    ],
    ...overrides,
  };
}

export async function createWorkflow(
  key: string,
  clientId: string,
  body: Record<string, unknown> = workflowBody(),
  env: Env = "sandbox",
) {
  const res = await call("POST", `/api/${env}/v1/apps/${clientId}/workflows`, { headers: bearer(key), body });
  if (res.status !== 201) throw new Error(`creating a workflow failed: ${res.status} ${res.text}`);
  return res.body as {
    workflowId: string;
    name: string;
    entryNodeId: string;
    nodes: Record<string, unknown>[];
  };
}

/** Adds a provider row to an app directly (activation is another area's API). */
export async function addAppProvider(clientId: string, providerId: string, { enabled = true } = {}) {
  const now = new Date();
  await kysely()
    .insertInto("appProviders")
    .values({ appId: clientId, providerId, enabled, status: "activated", activatedAt: now, updatedAt: now })
    .execute();
}
