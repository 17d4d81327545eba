/** How the document presents credentials and permissions (what integrators read first). */
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./document";

type Operation = {
  security: Record<string, string[]>[];
  description?: string;
  responses: Record<string, unknown>;
};

const doc = buildOpenApiDocument({ origin: "https://idv.example.com" }) as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, string>> };
};
const op = (path: string, method: string) => doc.paths[path]![method]!;

describe("OpenAPI security and permissions", () => {
  it("offers the console session cookie next to the Bearer key on workspace endpoints", () => {
    expect(doc.components.securitySchemes.consoleSession).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "idv.session",
    });
    expect(doc.components.securitySchemes.consoleSession!.description).toMatch(/Origin/);
    for (const [path, method] of [
      ["/v1/apps", "get"],
      ["/v1/api-keys", "post"],
      ["/v1/team/members/{user_id}", "patch"],
      ["/v1/me", "get"],
    ] as const) {
      expect(op(path, method).security).toEqual([{ workspaceKey: [] }, { consoleSession: [] }]);
      expect(op(path, method).responses["403"]).toBeDefined();
    }
    expect(op("/v1/verifications", "post").security).toEqual([{ appCredentials: [] }]);
  });

  it("shows no security on the unauthenticated endpoints", () => {
    for (const path of ["/v1/signup", "/v1/invitations/lookup", "/v1/invitations/accept"]) {
      expect(op(path, "post").security).toEqual([]);
      expect(op(path, "post").responses["401"]).toBeUndefined();
    }
  });

  it("states the permission of every workspace endpoint", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!operation.security.some((s) => "consoleSession" in s)) continue;
        expect(operation.description, `${method} ${path}`).toMatch(/Permission `[a-z_]+`/);
      }
    }
    expect(op("/v1/api-keys", "post").description).toContain(
      "Permission `credentials`: owner, admin, developer in sandbox only",
    );
    expect(op("/v1/apps", "get").description).toContain("Permission `read`: owner, admin, developer, viewer");
    expect(op("/v1/team/invitations", "post").description).toContain("Permission `team`");
  });
});
