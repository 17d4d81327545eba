// GET /v1/operator/connections/schema (issue 24 §1): per adapter the JSON Schema of the settings a
// PUT sends, generated from the API's own check, secrets write-only; operators only.
import { describe, expect, it } from "vitest";
import { SECRET_FIELDS } from "@/lib/connections/schema";
import { makeOperator, makeWorkspace, operatorSessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";
import { isolateTestDatabase } from "@/lib/testing/webhooks";

// connections are environment-wide and other files connect providers as they run
isolateTestDatabase();

const PATH = "/api/production/v1/operator/connections/schema";

describe("GET /v1/operator/connections/schema", () => {
  it("answers each adapter's settings schema with its secrets write-only and not required", async () => {
    const operator = await makeOperator();
    const res = await call("GET", PATH, { headers: await operatorSessionHeaders(operator.userId) });
    expect(res.status, res.text).toBe(200);
    const oidc = res.body.adapters.find((a: { adapter: string }) => a.adapter === "oidc");
    expect(oidc.secrets).toEqual([...SECRET_FIELDS.oidc]);
    expect(oidc.schema.type).toBe("object");
    expect(oidc.schema.properties.issuer).toMatchObject({ type: "string" });
    expect(oidc.schema.properties.clientSecret).toMatchObject({ type: "string", writeOnly: true });
    expect(oidc.schema.properties.scopes).toMatchObject({ type: "array", items: { type: "string" } });
    expect(oidc.schema.properties.allowInsecureRequests).toMatchObject({ type: "boolean" });
    expect(oidc.schema.required).toEqual(expect.arrayContaining(["issuer", "clientId"]));
    expect(oidc.schema.required).not.toContain("clientSecret");
    // every secret of every adapter is marked
    for (const adapter of res.body.adapters as { secrets: string[]; schema: { properties: object } }[]) {
      for (const name of adapter.secrets) {
        expect(adapter.schema.properties).toHaveProperty([name, "writeOnly"], true);
      }
    }
    expect(res.body.adapters.map((a: { adapter: string }) => a.adapter)).toEqual(Object.keys(SECRET_FIELDS));
  });

  it("is what the form's secrets are named by: the connection JSON lists the stored ones (secretsSet)", async () => {
    const operator = await makeOperator();
    const headers = bearer(operator.operatorKey);
    const none = await call("GET", "/api/sandbox/v1/operator/connections/nl_digid", { headers });
    expect(none.body.secretsSet).toEqual([]);
    const put = await call("PUT", "/api/sandbox/v1/operator/connections/nl_digid", {
      headers,
      body: {
        adapter: "oidc",
        enabled: false,
        settings: { issuer: "https://eid.example.test", clientId: "broker", clientSecret: "s3cret-0001" },
      },
    });
    expect(put.status, put.text).toBe(201);
    expect(put.body.secretsSet).toEqual(["clientSecret"]);
    expect(put.text).not.toContain("s3cret-0001");
  });

  it("is for operators only", async () => {
    expect((await call("GET", PATH)).status).toBe(401);
    const ws = await makeWorkspace();
    expect((await call("GET", PATH, { headers: bearer(ws.keys.production) })).status).toBe(401);
    const operator = await makeOperator();
    expect((await call("GET", PATH, { headers: bearer(operator.operatorKey) })).status).toBe(200);
  });
});
