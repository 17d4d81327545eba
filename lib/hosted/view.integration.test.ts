/**
 * loadHostedView against PostgreSQL: the session, its app's name and its workflow's verification
 * node are read in one statement (lib/verifications/store/hosted.ts), and the page shows what
 * they say — the node's branding and claims, the app's name when the node names nobody.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { makeVerifyingApp } from "../testing/verifications";
import { createWorkflow, workflowBody } from "../testing/workflows";
import { loadHostedView } from "./view";

function brandedBody(branding: Record<string, unknown>) {
  const body = workflowBody();
  return {
    ...body,
    nodes: body.nodes.map((node) =>
      node.type === "verification" ? { ...node, config: { ...node.config, branding } } : node,
    ),
  };
}

describe("loadHostedView", () => {
  it("shows the session with its app's name and its workflow node's claims and branding", async () => {
    const t = await makeVerifyingApp();
    const key = t.ws.keys.sandbox;
    const own = await createWorkflow(
      key,
      t.app.clientId,
      brandedBody({ useAppBranding: false, name: "Shop" }),
    );
    const nameless = await createWorkflow(key, t.app.clientId, brandedBody({ useAppBranding: false }));
    const start = async (workflowId?: string) => {
      const res = await t.start({ providerId: "passport", ...(workflowId ? { workflowId } : {}) });
      expect(res.status).toBe(201);
      return res.body.verificationId as string;
    };

    const id = await start(own.workflowId);
    const view = await loadHostedView(kysely(), id);
    const row = await kysely()
      .selectFrom("verifications")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(view).toMatchObject({
      id,
      environment: "sandbox",
      status: "awaiting_user_action",
      ended: false,
      flowType: row.flowType,
      expiresAt: row.expiresAt.toISOString(),
      locale: null,
      appName: "Test app",
      brand: { name: "Shop" },
      provider: { id: "passport" },
      sharing: { mode: "claims", claims: ["given_name", "family_name", "email"] },
    });
    expect(view).not.toHaveProperty("reason");

    // the node names nobody: the app's name; the default workflow uses the app's branding
    expect((await loadHostedView(kysely(), await start(nameless.workflowId)))?.brand).toEqual({
      name: "Test app",
    });
    expect((await loadHostedView(kysely(), await start()))?.brand).toEqual({ name: "Test app" });

    // an ended session says why
    await t.cancel(id);
    expect(await loadHostedView(kysely(), id)).toMatchObject({
      status: "cancelled",
      reason: "cancelled_by_integrator",
      ended: true,
    });
  });

  it("is null for an unknown or malformed id", async () => {
    expect(await loadHostedView(kysely(), `ver_${"0".repeat(26)}`)).toBeNull();
    expect(await loadHostedView(kysely(), "not-an-id")).toBeNull();
  });
});
