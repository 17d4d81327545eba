import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { addMember, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

describe("PATCH /v1/workspace", () => {
  it("renames the workspace for an admin session and an API key, audited", async () => {
    const ws = await makeWorkspace("Before");
    const admin = await addMember(ws.workspaceId, "admin");
    const res = await call("PATCH", "/api/sandbox/v1/workspace", {
      headers: await sessionHeaders(admin.userId),
      body: { name: "  Acme Identity  " },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Acme Identity");
    const byKey = await call("PATCH", "/api/production/v1/workspace", {
      headers: bearer(ws.keys.production),
      body: { name: "Acme" },
    });
    expect(byKey.status).toBe(200);
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("workspaceId", "=", ws.workspaceId)
      .where("action", "=", "workspace.renamed")
      .orderBy("createdAt", "asc")
      .execute();
    expect(audit.map((a) => [a.actorType, a.actorId])).toEqual([
      ["user", admin.userId],
      ["api_key", expect.stringMatching(/^key_/)],
    ]);
  });

  it("refuses developers and viewers, and an empty name", async () => {
    const ws = await makeWorkspace("Kept");
    for (const role of ["developer", "viewer"] as const) {
      const member = await addMember(ws.workspaceId, role);
      const res = await call("PATCH", "/api/sandbox/v1/workspace", {
        headers: await sessionHeaders(member.userId),
        body: { name: "Changed" },
      });
      expect(res.status).toBe(403);
    }
    const empty = await call("PATCH", "/api/sandbox/v1/workspace", {
      headers: bearer(ws.keys.sandbox),
      body: { name: " " },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details[0].path).toBe("name");
    const kept = await kysely()
      .selectFrom("workspaces")
      .select("name")
      .where("id", "=", ws.workspaceId)
      .executeTakeFirstOrThrow();
    expect(kept.name).toBe("Kept");
  });
});
