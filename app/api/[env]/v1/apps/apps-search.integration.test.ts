import { describe, expect, it } from "vitest";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

describe("GET /v1/apps?search=", () => {
  it("filters by a case-insensitive part of the name or the exact clientId", async () => {
    const ws = await makeWorkspace();
    const shop = await makeApp(ws.keys.sandbox, "sandbox", "Web Shop");
    const bank = await makeApp(ws.keys.sandbox, "sandbox", "Mobile banking");
    await makeApp(ws.keys.production, "production", "Shop in production");
    const other = await makeWorkspace();
    await makeApp(other.keys.sandbox, "sandbox", "Another shop");
    const names = async (query: string) => {
      const res = await call("GET", `/api/sandbox/v1/apps?${query}`, { headers: bearer(ws.keys.sandbox) });
      expect(res.status).toBe(200);
      return { names: res.body.data.map((a: { name: string }) => a.name), total: res.body.total };
    };
    expect(await names("search=SHOP")).toEqual({ names: ["Web Shop"], total: 1 });
    expect(await names("search=%20bank%20")).toEqual({ names: ["Mobile banking"], total: 1 });
    expect(await names(`search=${shop.clientId}`)).toEqual({ names: ["Web Shop"], total: 1 });
    // a clientId matches exactly, not as a part
    expect(await names(`search=${bank.clientId.slice(0, -1)}`)).toEqual({ names: [], total: 0 });
    expect(await names("search=zzz")).toEqual({ names: [], total: 0 });
    // LIKE's wildcards are searched for as they are, not as patterns
    await makeApp(ws.keys.sandbox, "sandbox", "100% refunds_app");
    expect(await names("search=%25")).toEqual({ names: ["100% refunds_app"], total: 1 });
    expect(await names("search=s_app")).toEqual({ names: ["100% refunds_app"], total: 1 });
    expect(await names("search=W_b")).toEqual({ names: [], total: 0 });
    expect((await names("search=")).total).toBe(3);
    expect(await names("search=o&limit=1")).toMatchObject({ total: 2 });
    const tooLong = await call("GET", `/api/sandbox/v1/apps?search=${"x".repeat(101)}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details[0].path).toBe("search");
  });
});
