import { describe, expect, it } from "vitest";
import { makeWorkspace } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

describe("smoke", () => {
  it("creates an app", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/apps", { headers: bearer(ws.keys.sandbox), body: { name: "A" } });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("A");
  });
});
