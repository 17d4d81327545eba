/**
 * The REST surface over real HTTP against the production server: a workspace made with the
 * operator CLI, then its sandbox key used the way an integrator would.
 */
import { expect, test as base, type APIResponse } from "@playwright/test";
import { createWorkspace, type CreatedWorkspace } from "./support/cli";

const test = base.extend<object, { workspace: CreatedWorkspace }>({
  workspace: [
    async ({}, use, workerInfo) => use(await createWorkspace(`api worker ${workerInfo.workerIndex}`)),
    { scope: "worker", timeout: 90_000 },
  ],
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function expectErrorEnvelope(response: APIResponse, status: number, code: string) {
  expect(response.status()).toBe(status);
  expect(response.headers()["content-type"]).toContain("application/json");
  const body = (await response.json()) as { error: { code: string; message: string; requestId: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.requestId).toBe(response.headers()["x-request-id"]);
  return body;
}

test("creates an app and reads it back", async ({ request, workspace }) => {
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(workspace.keys.sandbox),
    data: { name: "E2E checkout" },
  });
  expect(created.status()).toBe(201);
  const app = (await created.json()) as {
    clientId: string;
    clientSecret: string;
    name: string;
    environment: string;
  };
  expect(app.name).toBe("E2E checkout");
  expect(app.environment).toBe("sandbox");
  expect(app.clientSecret).toEqual(expect.any(String));
  expect(app.clientSecret.length).toBeGreaterThanOrEqual(32);
  const location = created.headers()["location"];
  expect(location).toBe(`/api/sandbox/v1/apps/${app.clientId}`);

  const fetched = await request.get(location!, { headers: bearer(workspace.keys.sandbox) });
  expect(fetched.status()).toBe(200);
  const readBack = (await fetched.json()) as Record<string, unknown>;
  expect(readBack).toMatchObject({ clientId: app.clientId, name: "E2E checkout", environment: "sandbox" });
  // the secret is shown once, at creation
  expect(readBack).not.toHaveProperty("clientSecret");
});

test("every response carries a request id and is never cached", async ({ request, workspace }) => {
  const ok = await request.get("/api/sandbox/v1/apps", { headers: bearer(workspace.keys.sandbox) });
  const unauthorized = await request.get("/api/sandbox/v1/apps");
  for (const response of [ok, unauthorized]) {
    expect(response.headers()["x-request-id"]).toMatch(/^req_/);
    expect(response.headers()["cache-control"]).toContain("no-store");
  }
  expect(ok.status()).toBe(200);
  expect(ok.headers()["x-request-id"]).not.toBe(unauthorized.headers()["x-request-id"]);
});

test("a request without an API key is 401 INVALID_API_KEY", async ({ request }) => {
  const response = await request.get("/api/sandbox/v1/apps");
  await expectErrorEnvelope(response, 401, "INVALID_API_KEY");
  expect(response.headers()["www-authenticate"]).toMatch(/^Bearer/);
});

test("a sandbox key on the production address is 401 INVALID_API_KEY", async ({ request, workspace }) => {
  const response = await request.get("/api/production/v1/apps", { headers: bearer(workspace.keys.sandbox) });
  await expectErrorEnvelope(response, 401, "INVALID_API_KEY");
});

test("an unknown environment is 404 in the error envelope", async ({ request, workspace }) => {
  const response = await request.get("/api/staging/v1/apps", { headers: bearer(workspace.keys.sandbox) });
  await expectErrorEnvelope(response, 404, "ROUTE_NOT_FOUND");
  expect(response.headers()["cache-control"]).toContain("no-store");
});

test("a body over 1 MB is 413 and changes nothing", async ({ request, workspace }) => {
  const created = await request.post("/api/sandbox/v1/apps", {
    headers: bearer(workspace.keys.sandbox),
    data: { name: "E2E size limit" },
  });
  expect(created.status()).toBe(201);
  const { clientId } = (await created.json()) as { clientId: string };

  const huge = JSON.stringify({ name: "x".repeat(1024 * 1024 + 1) });
  const response = await request.patch(`/api/sandbox/v1/apps/${clientId}`, {
    headers: { ...bearer(workspace.keys.sandbox), "Content-Type": "application/json" },
    data: huge,
  });
  await expectErrorEnvelope(response, 413, "PAYLOAD_TOO_LARGE");

  const after = await request.get(`/api/sandbox/v1/apps/${clientId}`, {
    headers: bearer(workspace.keys.sandbox),
  });
  expect(((await after.json()) as { name: string }).name).toBe("E2E size limit");
});

test("concurrent duplicates with one Idempotency-Key create exactly one app", async ({ request }) => {
  // a workspace of its own, so the app count below is exact whatever other tests do
  const own = await createWorkspace("idempotency race");
  const headers = { ...bearer(own.keys.sandbox), "Idempotency-Key": "e2e-race" };
  const responses = await Promise.all(
    Array.from({ length: 10 }, () =>
      request.post("/api/sandbox/v1/apps", { headers, data: { name: "Race" } }),
    ),
  );
  const bodies = (await Promise.all(responses.map((r) => r.json()))) as {
    clientId?: string;
    error?: { code: string };
  }[];
  const clientIds = new Set<string>();
  responses.forEach((response, i) => {
    if (response.status() === 409) expect(bodies[i]!.error?.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    else {
      expect(response.status()).toBe(201);
      clientIds.add(bodies[i]!.clientId!);
    }
  });
  expect(clientIds.size).toBe(1);
  const list = await request.get("/api/sandbox/v1/apps", { headers: bearer(own.keys.sandbox) });
  expect(((await list.json()) as { total: number }).total).toBe(1);
});
