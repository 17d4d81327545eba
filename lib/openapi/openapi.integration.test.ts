import { describe, expect, it } from "vitest";
import { call } from "../testing/router";

describe("GET /v1/openapi.json", () => {
  it("serves the document of the environment without authentication", async () => {
    const res = await call("GET", "/api/sandbox/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.info.version).toBe("1.0.0");
    expect(res.body.servers).toEqual([{ url: "http://localhost:3000/api/sandbox", description: "sandbox" }]);
    expect(res.body.paths["/v1/apps"].post.operationId).toBe("createApp");
    expect(res.headers.get("cache-control")).toContain("max-age");
    const production = await call("GET", "/api/production/v1/openapi.json");
    expect(production.body.servers[0].url).toBe("http://localhost:3000/api/production");
  });
});
