/**
 * The OpenAPI document and the route tree must describe the same API: every exported method of
 * every route file under app/api/[env] has a definition in the document, and every definition
 * has a route.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { isMethodNotAllowed } from "../http/pipeline";
import { buildOpenApiDocument } from "./document";
import { ALL_ENDPOINTS } from "./registry";

const root = path.resolve(import.meta.dirname, "..", "..", "app", "api", "[env]");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string, segments: string[] = []): { file: string; segments: string[] }[] {
  const out: { file: string; segments: string[] }[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...routeFiles(path.join(dir, entry.name), [...segments, entry.name]));
    else if (entry.name === "route.ts") out.push({ file: path.join(dir, entry.name), segments });
  }
  return out;
}

function toOpenApiPath(segments: string[]): string {
  return (
    "/" +
    segments
      .map((s) => {
        const m = /^\[(\w+)\]$/.exec(s);
        return m ? `{${m[1]!.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}` : s;
      })
      .join("/")
  );
}

async function routedOperations(): Promise<string[]> {
  const ops: string[] = [];
  for (const { file, segments } of routeFiles(root)) {
    if (segments.some((s) => s.startsWith("[..."))) continue; // the 404 catch-all
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const method of METHODS)
      if (typeof mod[method] === "function" && !isMethodNotAllowed(mod[method]))
        ops.push(`${method} ${toOpenApiPath(segments)}`);
  }
  return ops.sort();
}

describe("OpenAPI document", () => {
  it("lists exactly the routes that exist", async () => {
    const documented = ALL_ENDPOINTS.map((d) => `${d.method} ${d.path}`).sort();
    const routed = await routedOperations();
    expect(routed.length).toBeGreaterThan(5);
    expect(documented.filter((op) => !routed.includes(op))).toEqual([]);
    expect(routed.filter((op) => !documented.includes(op))).toEqual([]);
  });

  it("is a well-formed OpenAPI 3.1 document with version 1.0.0", () => {
    const doc = buildOpenApiDocument({ origin: "https://idv.example.com" });
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers.map((s) => s.url)).toEqual([
      "https://idv.example.com/api/sandbox",
      "https://idv.example.com/api/production",
    ]);
    const operationIds = new Set<string>();
    for (const [p, item] of Object.entries(doc.paths)) {
      expect(p.startsWith("/v1/") || p === "/token").toBe(true);
      for (const op of Object.values(item) as {
        operationId: string;
        responses: Record<string, unknown>;
        parameters?: { name: string; in: string }[];
      }[]) {
        expect(operationIds.has(op.operationId)).toBe(false);
        operationIds.add(op.operationId);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        // every {param} of the path is declared as a path parameter
        for (const m of p.matchAll(/\{([a-z_]+)\}/g)) {
          expect(op.parameters?.some((x) => x.in === "path" && x.name === m[1])).toBe(true);
        }
      }
    }
    // every $ref points at a component that exists
    const text = JSON.stringify(doc);
    for (const m of text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)) {
      expect(Object.keys(doc.components.schemas)).toContain(m[1]);
    }
  });

  it("documents request bodies from the handlers' schemas, unknown fields refused", () => {
    const doc = buildOpenApiDocument({ origin: "" }) as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<string, { schema: { properties?: object; additionalProperties?: boolean } }>;
            };
          }
        >
      >;
    };
    const body = doc.paths["/v1/apps/{client_id}"]!.patch!.requestBody!.content["application/json"]!.schema;
    expect(Object.keys(body.properties ?? {})).toEqual(
      expect.arrayContaining(["name", "logo", "redirectUris", "webhookConfig"]),
    );
    expect(body.additionalProperties).toBe(false);
  });
});
