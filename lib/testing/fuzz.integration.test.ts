/**
 * Fuzz campaign over every route file (issue 12, item 6): fast-check generates requests — path
 * parameters (existing ids, well-formed unknown ids, ids of the wrong kind, NULs, unpaired
 * surrogates, percent-encodings, 10 KB strings), query strings, credentials (valid, of the wrong
 * kind or environment, garbage Basic and Bearer), bodies (the endpoint's own schema with mutated
 * values, arbitrary JSON, broken JSON, form bodies for the OAuth and OP endpoints) and wrong
 * methods — and sends them through the in-process router (lib/testing/router.ts `dispatch`), so
 * they run the very wrappers and handlers the server runs.
 *
 * next-auth's routes get its forms and query with broken values, callbackUrl above all (issue 23:
 * `http://x:y` was a 500), and a `next-auth.callback-url` cookie. Raw requests — any method Node.js
 * parses, percent-escapes of any byte in any segment, declared and chunked bodies — go through the
 * production server's request listener (server/production.mjs) on a real socket, in front of the
 * same router.
 *
 * Every response must be below 500, and every 4xx must carry its surface's error shape: the REST
 * envelope `{error: {code, message, requestId}}`, an OAuth error body, the OP's error page, the
 * hosted pages' JSON envelope or plain text. Finally every request that went through the REST
 * wrapper must have reached the request log (one poisoned batch drops everyone's rows).
 *
 * Provider connections (issue 24) get a campaign of their own besides their routes': PUTs built
 * from each adapter's valid settings with one value or key broken (or a body that is something
 * else entirely), among DELETEs, checks and reads, in the sandbox environment: a 400 names its
 * field, a refused change leaves the stored connection exactly as it was, and an accepted one
 * never answers a secret it was sent. On the connection routes of the main campaign too, a
 * VALIDATION_ERROR names its field and a refused PUT or DELETE stores nothing.
 *
 * Reproduce a failure with the seed it prints: FUZZ_SEED=<seed> (FUZZ_RUNS=<runs per method> for
 * a longer campaign, FUZZ_ONLY=<part of a route path> for one route, FUZZ_VERBOSE=1 to print
 * every case and its status, FUZZ_STATS=1 for the statuses per route and method).
 */
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOperatorKey } from "../auth/operator-keys";
import { checkSignInLimits } from "../auth/sign-in";
import { CONNECTION_ADAPTERS, SECRET_FIELDS } from "../connections/schema";
import { kysely } from "../db/client";
import { ApiError } from "../errors";
import type { EndpointDef } from "../http/endpoint";
import { isMethodNotAllowed } from "../http/pipeline";
import { registerFastPathHooks } from "../http/request-shaping";
import { OP_PAGE } from "../../app/oidc/_lib/op-page";
import { requestListener, serverOptions } from "../../server/production.mjs";
import { writeResponse } from "../../server/web.mjs";
import { newId, type IdPrefix } from "../ids";
import { ALL_ENDPOINTS } from "../openapi/registry";
import { clientIp } from "../rate-limit";
import { flushRequestLog } from "../request-log/writer";
import { validValues } from "./activation";
import { startTestDnsServer, type TTestDnsServer } from "./dns-server";
import { fixture, startSamlIdp } from "./saml-idp";
import { addMember, makeApp, makeOperator, makeWorkspace, sessionHeaders } from "./factories";
import { basic, bearer, call, dispatch } from "./router";
import { activateProviders } from "./verifications";

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
/** cases per exported method of a route file; wrong methods get a few each */
const RUNS = Number(process.env.FUZZ_RUNS ?? 75);
const WRONG_METHOD_RUNS = Math.max(2, Math.round(RUNS / 20));
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type TMethod = (typeof METHODS)[number];
const ORIGIN = "http://localhost:3000";
const REDIRECT = "https://rp.invalid/cb";

// ---- the route table ---------------------------------------------------------------------------

type TSurface =
  | "rest" // the REST envelope
  | "oauth" // RFC 6749 / 6750 error bodies
  | "op-page" // the OP's HTML error page
  | "hosted" // hosted and simulator pages: JSON envelope or text
  | "tls" // the TLS ask endpoint
  | "next-auth"; // next-auth's own endpoints

interface TRoute {
  file: string;
  /** URL segments, dynamic ones as [name] / [...name] */
  segments: string[];
  template: string;
  surface: TSurface;
  methods: TMethod[];
  defs: Partial<Record<TMethod, EndpointDef>>;
}

const appDir = path.resolve(import.meta.dirname, "..", "..", "app");

function collect(dir: string, segments: string[], out: { file: string; segments: string[] }[]) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const next = /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name];
      collect(path.join(dir, entry.name), next, out);
    } else if (entry.name === "route.ts") out.push({ file: path.join(dir, entry.name), segments });
  }
}

function surfaceOf(segments: string[]): TSurface {
  const [first, second, third] = segments;
  if (first === "api") {
    if (second === "auth") return "next-auth";
    if (second === "tls") return "tls";
    return third === "token" ? "oauth" : "rest";
  }
  if (first === "oidc") {
    // token, userinfo, discovery and JWKS answer errors as OAuth bodies
    return third === "auth" || third === "select" || third === "resume" ? "op-page" : "oauth";
  }
  return "hosted";
}

/** /v1/apps/{client_id}, as the endpoint definitions name their paths */
function openApiPath(segments: string[]): string {
  return `/${segments
    .slice(2)
    .map((s) => {
      const m = /^\[(\w+)\]$/.exec(s);
      return m ? `{${m[1]!.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}` : s;
    })
    .join("/")}`;
}

async function routeTable(): Promise<TRoute[]> {
  const found: { file: string; segments: string[] }[] = [];
  collect(appDir, [], found);
  const routes: TRoute[] = [];
  for (const { file, segments } of found.sort((a, b) => a.file.localeCompare(b.file))) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    // the methods the route implements (otherMethodsOf() exports the rest as 405 handlers)
    const methods = METHODS.filter((m) => typeof mod[m] === "function" && !isMethodNotAllowed(mod[m]));
    const surface = surfaceOf(segments);
    const defs: TRoute["defs"] = {};
    if (segments[0] === "api" && segments[1] === "[env]") {
      const p = openApiPath(segments);
      for (const m of methods) {
        const def = ALL_ENDPOINTS.find((d) => d.method === m && d.path === p);
        if (def) defs[m] = def;
      }
    }
    routes.push({ file, segments, template: `/${segments.join("/")}`, surface, methods, defs });
  }
  return routes;
}

// ---- the world the requests act on -------------------------------------------------------------

interface TWorld {
  workspaceKey: string;
  productionKey: string;
  operatorKey: string;
  appCreds: Record<string, string>;
  productionAppCreds: Record<string, string>;
  session: Record<string, string>;
  clientId: string;
  clientSecret: string;
  /** existing ids per path parameter name */
  ids: Record<string, string[]>;
}

let world: TWorld;
let dns: TTestDnsServer;
const savedEnv: Record<string, string | undefined> = {};
/** request ids of the responses that went through the REST wrapper */
const loggedRequestIds: string[] = [];
const loggedRequests = new Map<string, string>();
/** FUZZ_STATS=1 prints how the responses were distributed (to see that the fuzzer goes deep) */
const stats = new Map<string, number>();
let cases = 0;

async function makeWorld(): Promise<TWorld> {
  const db = kysely();
  const ws = await makeWorkspace("Fuzz workspace");
  const app = await makeApp(ws.keys.sandbox, "sandbox", "Fuzz app");
  const productionApp = await makeApp(ws.keys.production, "production", "Fuzz production app");
  await activateProviders(app.clientId, ["passport", "de_eid"]);
  const key = bearer(ws.keys.sandbox);
  const patched = await call("PATCH", `/api/sandbox/v1/apps/${app.clientId}`, {
    headers: key,
    body: { redirectUris: [REDIRECT] },
  });
  if (patched.status !== 200) throw new Error(`redirect URIs: ${patched.status} ${patched.text}`);
  const appCreds = basic(app.clientId, app.clientSecret);
  const ids: Record<string, string[]> = {
    clientId: [app.clientId],
    workflowId: [app.defaultWorkflowId],
    workspaceId: [ws.workspaceId],
    providerId: ["passport", "de_eid", "nl_digid", "fr_franceconnect", "eudi_wallet"],
    version: ["1", "2"],
    nextauth: ["session", "csrf", "providers", "signin", "signout", "callback"],
    rest: ["v1", "nothing", "v2"],
  };
  const add = (name: string, id: string | undefined) => {
    if (id) (ids[name] ??= []).push(id);
  };
  for (let i = 0; i < 2; i++) {
    const v = await call("POST", "/api/sandbox/v1/verifications", {
      headers: appCreds,
      body: { providerId: "passport", redirect_uri: REDIRECT, state: "fuzz" },
    });
    add("verificationId", (v.body as { verificationId?: string } | undefined)?.verificationId);
    add("id", (v.body as { verificationId?: string } | undefined)?.verificationId);
  }
  // a second key, so DELETE /v1/api-keys/{keyId} revokes that one and not the fuzzer's own
  const extraKey = await call("POST", "/api/sandbox/v1/api-keys", { headers: key, body: { name: "spare" } });
  add("keyId", (extraKey.body as { id?: string } | undefined)?.id);
  const member = await addMember(ws.workspaceId, "developer");
  add("userId", member.userId);
  const invitation = await call("POST", "/api/sandbox/v1/team/invitations", {
    headers: key,
    body: { email: "invited@example.test", role: "viewer" },
  });
  add("invitationId", (invitation.body as { invitation?: { id?: string } } | undefined)?.invitation?.id);
  // a registration provider: its ticket waits for an operator's review
  await call("POST", `/api/sandbox/v1/apps/${app.clientId}/activation`, {
    headers: key,
    body: { providers: { nl_digid: validValues("nl_digid") } },
  });
  const tickets = await kysely()
    .selectFrom("activationTickets")
    .select("id")
    .where("appId", "=", app.clientId)
    .execute();
  for (const t of tickets) add("ticketId", t.id);
  const operator = await makeOperator();
  const operatorKey = (await createOperatorKey(db, operator.userId)).key;
  const request = await call("POST", `/api/sandbox/v1/apps/${app.clientId}/production-tests`, {
    headers: key,
    body: { title: "Fuzz test", providerIds: ["passport"], maxStampClaims: 3 },
  });
  const requestId = (request.body as { request?: { id?: string } } | undefined)?.request?.id;
  add("requestId", requestId);
  if (requestId) {
    const scheduled = await call("POST", `/api/sandbox/v1/operator/production-tests/${requestId}/schedule`, {
      headers: bearer(operatorKey),
      body: {},
    });
    add("challengeId", (scheduled.body as { challenge?: { id?: string } } | undefined)?.challenge?.id);
  }
  const session = await sessionHeaders(ws.userId, { workspaceId: ws.workspaceId });
  return {
    workspaceKey: ws.keys.sandbox,
    productionKey: ws.keys.production,
    operatorKey,
    appCreds,
    productionAppCreds: basic(productionApp.clientId, productionApp.clientSecret),
    session,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    ids,
  };
}

/** The fuzzer may delete the app, rotate its secret or revoke the key: start afresh then. */
async function ensureWorld(): Promise<void> {
  const [byKey, byApp] = await Promise.all([
    call("GET", `/api/sandbox/v1/apps/${world.clientId}`, { headers: bearer(world.workspaceKey) }),
    call("GET", "/api/sandbox/v1/providers", { headers: world.appCreds }),
  ]);
  if (byKey.status !== 200 || byApp.status !== 200) world = await makeWorld();
}

// ---- generators ----------------------------------------------------------------------------------
// Each case is a valid request (the route's own credentials, existing ids, a body and query
// built from the endpoint's schema with values that pass) with, most of the time, ONE thing
// broken: a path parameter, the credentials, one value or key of the body or query, the content
// type, the whole body, or extra headers. So the broken part reaches as deep as it can.

const ID_KINDS: IdPrefix[] = [
  "app",
  "ver",
  "wf",
  "wfc",
  "key",
  "dlv",
  "chl",
  "act",
  "ptr",
  "ws",
  "inv",
  "usr",
];

/** path parameter name → the kind of id it holds */
const PARAM_KINDS: Record<string, IdPrefix> = {
  clientId: "app",
  verificationId: "ver",
  id: "ver",
  workflowId: "wf",
  caseId: "wfc",
  keyId: "key",
  deliveryId: "dlv",
  challengeId: "chl",
  ticketId: "act",
  requestId: "ptr",
  workspaceId: "ws",
  invitationId: "inv",
  userId: "usr",
};

const anyChar16 = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

/** Strings that have broken servers before, and random ones of every kind. */
const nastyString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "\u0000",
      "a\u0000b",
      "app_\u0000x",
      "\ud800",
      "x\udc00",
      "\ud83d\ude00",
      "\u202e\ufeff",
      "%00",
      "%",
      "%zz",
      "../../etc/passwd",
      "'; DROP TABLE apps; --",
      "<script>alert(1)</script>",
      "null",
      "-1",
      "1e999",
      "https://rp.invalid/cb",
      "http://127.0.0.1:1/x",
      "javascript:alert(1)",
      "x".repeat(300),
      "x".repeat(10_000),
      "\u0000".repeat(64),
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyChar16, maxLength: 40 }) },
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }))
      .map(([a, b]) => `${a}\u0000${b}`),
  },
  { weight: 1, arbitrary: fc.constantFrom(...ID_KINDS).map((k) => newId(k)) },
  { weight: 2, arbitrary: fc.constantFrom(...ID_KINDS).map((k) => `${newId(k)}\u0000`) },
);

const asciiString = fc.string({ unit: "binary-ascii", maxLength: 60 });
/** A header value the Fetch API accepts (no NUL, CR, LF; Latin-1 only). */
const headerValue = fc.oneof(
  asciiString.map((s) => s.replace(/[\u0000\r\n]/g, "")),
  fc.constant("x".repeat(8000)),
);

/** Drops unpaired surrogates, which a URL cannot carry (its UTF-8 has no way to say them). */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\ufffd");
}

/** A path parameter as the route's caller would send it: an existing id (or a valid unknown one). */
function goodPathParam(name: string): fc.Arbitrary<string> {
  if (name === "env") return fc.constant("sandbox");
  const existing = world.ids[name] ?? [];
  const kind = PARAM_KINDS[name];
  if (existing.length > 0) return fc.constantFrom(...existing);
  return kind ? fc.constant(kind).map((k) => newId(k)) : fc.constant("x");
}

/** A broken path parameter (percent-encoded, as a client would put it in the URL). */
function badPathParam(name: string): fc.Arbitrary<string> {
  const kind = PARAM_KINDS[name];
  const options: fc.Arbitrary<string>[] = [
    // an empty segment would route elsewhere (the router, like Next.js, ignores it)
    nastyString.map((s) => encodeURIComponent(wellFormed(s)) || "%20"),
    fc.constantFrom("%00", "app_%00", "ver_%00x", "%2e%2e", "%EF%BF%BD", "a%2Fb", "%25"),
    fc.constantFrom(...ID_KINDS).map((k) => newId(k)),
  ];
  if (kind) options.push(fc.constant(kind).map((k) => `${newId(k)}%00`));
  if (name === "env") options.push(fc.constantFrom("production", "staging", "SANDBOX"));
  return fc.oneof(...options);
}

function pathArb(route: TRoute, mutate: boolean): fc.Arbitrary<string> {
  const dynamic = route.segments.flatMap((seg, i) => (/^\[/.test(seg) ? [i] : []));
  const build = (broken: number | undefined) =>
    fc
      .tuple(
        ...route.segments.map((seg, i) => {
          const m = /^\[(\.\.\.)?(\w+)\]$/.exec(seg);
          if (!m) return fc.constant(seg);
          const one = i === broken ? badPathParam(m[2]!) : goodPathParam(m[2]!);
          return m[1] ? fc.array(one, { minLength: 1, maxLength: 3 }).map((p) => p.join("/")) : one;
        }),
      )
      .map((parts) => `/${parts.join("/")}`);
  if (!mutate || dynamic.length === 0) return build(undefined);
  // the environment has few ways to be wrong: mostly break the ids
  const ids = dynamic.filter((i) => route.segments[i] !== "[env]");
  return fc
    .oneof(
      { arbitrary: fc.constantFrom(...(ids.length > 0 ? ids : dynamic)), weight: 4 },
      { arbitrary: fc.constantFrom(...dynamic), weight: 1 },
    )
    .chain((i) => build(i));
}

type TJsonSchema = { [k: string]: unknown };

/** Values that get a field past validation, so the handler and the database see the rest. */
function goodValues(): Record<string, unknown[]> {
  return {
    name: ["Fuzz"],
    providerId: ["passport", "de_eid"],
    providerIds: [["passport"]],
    redirect_uri: [REDIRECT],
    redirectUris: [[REDIRECT]],
    url: ["https://rp.invalid/hook"],
    email: ["fuzz@example.test"],
    role: ["developer", "viewer"],
    clientId: [world.clientId],
    workflowId: world.ids.workflowId ?? [],
    verificationId: world.ids.verificationId ?? [],
    challengeId: world.ids.challengeId ?? [],
    outcome: ["success", "failure"],
    title: ["Fuzz"],
    state: ["fuzz-state"],
    locale: ["en"],
  };
}

/** Values shaped by the JSON Schema of `schema` (from the endpoint's zod schema). */
function schemaArb(schema: unknown, root: TJsonSchema, depth: number, field?: string): fc.Arbitrary<unknown> {
  const s = (typeof schema === "object" && schema !== null ? schema : {}) as TJsonSchema;
  const good = field ? goodValues()[field] : undefined;
  const own = schemaArbInner(s, root, depth);
  return good && good.length > 0
    ? fc.oneof({ arbitrary: fc.constantFrom(...good), weight: 3 }, { arbitrary: own, weight: 1 })
    : own;
}

function schemaArbInner(s: TJsonSchema, root: TJsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constantFrom(null, "x", 1, true);
  if (typeof s.$ref === "string") {
    const name = s.$ref.split("/").pop()!;
    const defs = (root.$defs ?? root.definitions ?? {}) as Record<string, unknown>;
    return schemaArb(defs[name], root, depth + 1);
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const alts = s[key];
    if (Array.isArray(alts) && alts.length > 0)
      return fc.oneof(...alts.map((a) => schemaArb(a, root, depth + 1)));
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return schemaArb(s.allOf[0], root, depth + 1);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  if ("const" in s) return fc.constant(s.const);
  const type = Array.isArray(s.type) ? (s.type[0] as string) : (s.type as string | undefined);
  switch (type) {
    case "string": {
      const max = typeof s.maxLength === "number" ? s.maxLength : 20;
      const min = typeof s.minLength === "number" ? Math.min(s.minLength, max) : 0;
      const options: fc.Arbitrary<string>[] = [fc.string({ minLength: min, maxLength: Math.min(max, 20) })];
      if (typeof s.pattern === "string") {
        try {
          options.push(fc.stringMatching(new RegExp(s.pattern)).map((x) => x.slice(0, 200)));
        } catch {
          // a pattern JavaScript cannot compile: random strings only
        }
      }
      if (s.format === "uri" || s.format === "url") options.push(fc.constant(REDIRECT));
      if (s.format === "email") options.push(fc.constant("fuzz@example.test"));
      if (s.format === "date-time") options.push(fc.constant(new Date().toISOString()));
      return fc.oneof(...options);
    }
    case "integer":
    case "number": {
      const min = typeof s.minimum === "number" ? s.minimum : -1000;
      const max = typeof s.maximum === "number" ? s.maximum : 1000;
      return fc.oneof(
        fc.integer({ min: Math.ceil(min), max: Math.floor(Math.max(min, max)) }),
        fc.constantFrom(0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2),
      );
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = Array.isArray(s.prefixItems) ? s.prefixItems[0] : s.items;
      return fc.array(schemaArb(items, root, depth + 1), { minLength: 1, maxLength: 3 });
    }
    case "object": {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const names = Object.keys(props);
      if (names.length === 0) {
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      }
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const n of names) shape[n] = schemaArb(props[n], root, depth + 1, n);
      return fc.record(shape, { requiredKeys: names.filter((n) => required.has(n)) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function jsonSchemaOf(schema: z.ZodType | undefined): TJsonSchema | undefined {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as TJsonSchema;
  } catch {
    return {};
  }
}

/**
 * `value` with one leaf (or one object key) replaced by `bad`: the `n`-th of its leaves, or a
 * new key when it has none.
 */
function breakOne(value: unknown, n: number, bad: unknown, badKey: string | undefined): unknown {
  let count = 0;
  const leaves: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(walk);
    else leaves.push(v);
  };
  walk(value);
  const target = leaves.length === 0 ? -1 : n % leaves.length;
  const rebuild = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rebuild);
    if (typeof v === "object" && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(v)) {
        const isTarget =
          !Array.isArray(child) && (typeof child !== "object" || child === null) && count === target;
        if (isTarget && badKey !== undefined) {
          count++;
          out[badKey] = child;
        } else out[k] = rebuild(child);
      }
      return out;
    }
    return count++ === target ? bad : v;
  };
  if (target === -1) {
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? { ...value, [badKey ?? "x"]: bad }
      : bad;
  }
  return rebuild(value);
}

/** `clean` values, or (mutate) the same with one value or key broken. */
function withOneBroken<T>(clean: fc.Arbitrary<T>, mutate: boolean): fc.Arbitrary<unknown> {
  if (!mutate) return clean;
  const bad = fc.oneof(
    { arbitrary: nastyString, weight: 6 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
  );
  return fc
    .tuple(
      clean,
      fc.nat(),
      bad,
      // mostly a value, sometimes the key beside it
      fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: nastyString, weight: 1 }),
    )
    .map(([v, n, value, key]) => breakOne(v, n, value, key));
}

interface TCase {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: string;
}

const OAUTH_PARAMS = ["grant_type", "code", "redirect_uri", "code_verifier", "client_id", "client_secret"];
const OP_PARAMS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "provider",
  "prompt",
  "max_age",
  "acr_values",
  "ui_locales",
  "response_mode",
  "login_hint",
];
const OP_REQUIRED = ["client_id", "redirect_uri", "response_type", "scope", "provider"];
const HOSTED_PARAMS = ["identifier", "outcome", "identity", "flow"];
const NEXTAUTH_PARAMS = ["email", "password", "csrfToken", "callbackUrl", "json"];
/** callbackUrl values next-auth cannot parse, or that lead elsewhere */
const CALLBACK_URLS = [
  "http://x:y",
  "http://127.0.0.1:3917.evil.example/",
  "//evil.example/",
  "/\\evil.example",
  "https://evil.example/console",
  "javascript:alert(1)",
  "http://[::1",
  "/%FF",
  "/console/sandbox/dashboard",
  ORIGIN,
];

function goodParam(name: string): string {
  const values: Record<string, string> = {
    grant_type: "authorization_code",
    code: "fuzz-code",
    client_id: world.clientId,
    client_secret: world.clientSecret,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "openid profile",
    provider: "passport",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: "fuzz-state",
    nonce: "fuzz-nonce",
    max_age: "60",
    ui_locales: "en",
    identifier: "fuzz",
    outcome: "success",
    flow: "redirect",
    access_token: "x",
    domain: "fuzz.example.test",
    email: "fuzz@example.test",
    password: "wrong password",
    csrfToken: "x",
    callbackUrl: "/console/sandbox/dashboard",
    json: "true",
  };
  return values[name] ?? "x";
}

/** name=value pairs: the required names and some optional ones with good values, maybe one broken. */
function paramsArb(names: string[], required: string[], mutate: boolean): fc.Arbitrary<[string, string][]> {
  const optional = names.filter((n) => !required.includes(n));
  const clean = fc
    .subarray(optional)
    .map((extra) => [...required, ...extra].map((n): [string, string] => [n, goodParam(n)]));
  if (!mutate) return clean;
  return fc
    .tuple(
      clean,
      fc.nat(),
      nastyString,
      fc.oneof(
        { arbitrary: fc.constant("value"), weight: 6 },
        { arbitrary: fc.constantFrom("drop", "repeat", "extra"), weight: 1 },
      ),
    )
    .map(([pairs, n, bad, how]) => {
      const out = [...pairs];
      if (how === "value") {
        // any of the names, sent or not: the broken value is the only one of its name
        const name = names[n % names.length]!;
        return [...out.filter(([k]) => k !== name), [name, bad]];
      }
      const i = out.length === 0 ? 0 : n % out.length;
      if (how === "extra" || out.length === 0) out.push([bad, bad]);
      else if (how === "drop") out.splice(i, 1);
      else out.push([out[i]![0], bad]);
      return out;
    });
}

function rightAuth(route: TRoute, def: EndpointDef | undefined): Record<string, string> {
  if (def?.auth === "workspace") return bearer(world.workspaceKey);
  if (def?.auth === "app") return world.appCreds;
  if (def?.auth === "operator") return bearer(world.operatorKey);
  if (route.surface === "oauth" && route.segments.includes("token")) return world.appCreds;
  return {};
}

function otherAuth(): fc.Arbitrary<Record<string, string>> {
  const basicOf = (user: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
  });
  const garbageBasic = fc
    .tuple(nastyString, nastyString)
    .map(([u, p]) => basicOf(wellFormed(u), wellFormed(p)));
  const options: fc.WeightedArbitrary<Record<string, string>>[] = [
    { weight: 1, arbitrary: fc.constant({}) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        bearer(world.workspaceKey),
        bearer(world.productionKey),
        world.appCreds,
        world.productionAppCreds,
        bearer(world.operatorKey),
        world.session,
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        basicOf("app_%00x", "cs_test_x"),
        basicOf("app_\u0000x", "cs_test_x"),
        basicOf(`${world.clientId}\u0000`, world.clientSecret),
        basicOf(world.clientId, `${world.clientSecret}\u0000`),
        basicOf(`${world.clientId}%00`, world.clientSecret),
        { authorization: `Bearer ${world.workspaceKey}\u0001` },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { authorization: "Basic !!!" },
        { authorization: "Basic" },
        { authorization: `Bearer sk_workspace_test_${"A".repeat(40)}` },
        { cookie: "next-auth.session-token=garbage" },
        { ...world.session, "x-workspace-id": "ws_%00" },
        { ...world.session, origin: "https://evil.invalid" },
      ),
    },
    { weight: 3, arbitrary: garbageBasic },
    {
      weight: 1,
      arbitrary: garbageBasic.map((h) => ({ authorization: h.authorization.replace("Basic", "basic") })),
    },
    { weight: 1, arbitrary: headerValue.map((v) => ({ authorization: `Bearer ${v}` })) },
    { weight: 1, arbitrary: headerValue.map((v) => ({ authorization: v })) },
  ];
  return fc.oneof(...options);
}

const CONTENT_TYPES = [
  "application/json",
  "application/x-www-form-urlencoded",
  "text/plain",
  "application/merge-patch+json",
  "multipart/form-data; boundary=x",
  "",
];

type TBody = [contentType: string, text: string | undefined];

const oddBody: fc.Arbitrary<TBody> = fc.oneof(
  fc.constant<TBody>(["", undefined]),
  fc.tuple(
    fc.constantFrom(...CONTENT_TYPES),
    fc.constantFrom(
      "{",
      "[]",
      "null",
      '"x"',
      "{}",
      '{"a":"\\u0000"}',
      '{"a":"\\ud800"}',
      '{"\\u0000":1}',
      "%00=1",
      "a=%00",
    ),
  ),
  fc.tuple(fc.constantFrom(...CONTENT_TYPES), fc.string({ maxLength: 30 })),
  fc.jsonValue({ maxDepth: 3 }).map((v): TBody => ["application/json", JSON.stringify(v)]),
);

function formBody(pairs: fc.Arbitrary<[string, string][]>): fc.Arbitrary<TBody> {
  return pairs.map((p): TBody => [
    "application/x-www-form-urlencoded",
    new URLSearchParams(p.map(([k, v]) => [wellFormed(k), wellFormed(v)])).toString(),
  ]);
}

/** The body: `clean`, one value broken (`leaf`), or something else entirely (`raw`). */
function bodyArb(
  route: TRoute,
  def: EndpointDef | undefined,
  mode: "clean" | "leaf" | "raw",
): fc.Arbitrary<TBody> {
  if (mode === "raw") return oddBody;
  const mutate = mode === "leaf";
  if (route.surface === "oauth" && route.segments.includes("token")) {
    const pairs = paramsArb(OAUTH_PARAMS, ["grant_type", "code"], mutate);
    return fc.oneof(
      { arbitrary: formBody(pairs), weight: 3 },
      {
        arbitrary: pairs.map((p): TBody => ["application/json", JSON.stringify(Object.fromEntries(p))]),
        weight: 1,
      },
    );
  }
  if (route.surface === "oauth") return formBody(paramsArb(["access_token"], [], mutate));
  if (route.surface === "op-page") return formBody(paramsArb(OP_PARAMS, OP_REQUIRED, mutate));
  if (route.surface === "hosted") {
    return route.segments.includes("wallet")
      ? withOneBroken(fc.jsonValue({ maxDepth: 3 }), mutate).map((v): TBody => [
          "application/json",
          JSON.stringify(v),
        ])
      : formBody(paramsArb(HOSTED_PARAMS, ["outcome"], mutate));
  }
  if (route.surface === "next-auth") {
    return fc
      .tuple(formBody(paramsArb(NEXTAUTH_PARAMS, [], mutate)), fc.option(fc.constantFrom(...CALLBACK_URLS)))
      .map(([[type, text], callbackUrl]): TBody => {
        if (callbackUrl === null || !mutate) return [type, text];
        const form = new URLSearchParams(text);
        form.set("callbackUrl", callbackUrl);
        return [type, form.toString()];
      });
  }
  if (route.surface === "tls") return fc.constant<TBody>(["", undefined]);
  const schema = jsonSchemaOf(def?.body);
  if (!schema) return mutate ? oddBody : fc.constant<TBody>(["", undefined]);
  return withOneBroken(schemaArb(schema, schema, 0), mutate).map((v): TBody => [
    "application/json",
    JSON.stringify(v),
  ]);
}

function queryArb(
  route: TRoute,
  def: EndpointDef | undefined,
  method: TMethod,
  mutate: boolean,
): fc.Arbitrary<[string, string][]> {
  if (route.surface === "op-page" && method === "GET" && !route.segments.includes("[verificationId]")) {
    return paramsArb(OP_PARAMS, OP_REQUIRED, mutate);
  }
  if (route.surface === "tls") return paramsArb(["domain"], ["domain"], mutate);
  // the hosted pages' own parameters (QR frame, bind hand-off) and the resume proof
  if (route.surface === "hosted") return paramsArb(["f", "h", "flow", "done", "error"], [], mutate);
  if (route.surface === "op-page") return paramsArb(["p"], [], mutate);
  if (route.surface === "next-auth") {
    return mutate
      ? fc.oneof(
          paramsArb(["callbackUrl", "error"], [], true),
          fc.constantFrom(...CALLBACK_URLS).map((v): [string, string][] => [["callbackUrl", v]]),
        )
      : fc.constant([]);
  }
  const schema = jsonSchemaOf(def?.query);
  if (!schema) {
    return mutate
      ? fc.array(
          fc.tuple(fc.oneof(nastyString, fc.constantFrom("limit", "cursor", "f", "status")), nastyString),
          {
            minLength: 1,
            maxLength: 2,
          },
        )
      : fc.constant([]);
  }
  return withOneBroken(schemaArb(schema, schema, 0), mutate).map((q) =>
    typeof q === "object" && q !== null && !Array.isArray(q)
      ? Object.entries(q).map(([k, v]): [string, string] => [
          k,
          typeof v === "string" ? v : (JSON.stringify(v) ?? ""),
        ])
      : [],
  );
}

type TMutation = "none" | "path" | "auth" | "body" | "raw-body" | "query" | "content-type" | "headers";

const MUTATIONS: fc.Arbitrary<TMutation> = fc.oneof(
  { arbitrary: fc.constant<TMutation>("none"), weight: 1 },
  { arbitrary: fc.constant<TMutation>("path"), weight: 3 },
  { arbitrary: fc.constant<TMutation>("auth"), weight: 3 },
  { arbitrary: fc.constant<TMutation>("body"), weight: 4 },
  { arbitrary: fc.constant<TMutation>("raw-body"), weight: 1 },
  { arbitrary: fc.constant<TMutation>("query"), weight: 2 },
  { arbitrary: fc.constant<TMutation>("content-type"), weight: 1 },
  { arbitrary: fc.constant<TMutation>("headers"), weight: 1 },
);

const extraHeaders = fc.record(
  {
    "idempotency-key": headerValue,
    "if-match": fc.oneof(headerValue, fc.constantFrom('"1"', 'W/"2"', "*")),
    "sec-fetch-site": fc.constantFrom("same-origin", "cross-site", "none"),
    origin: fc.constantFrom(ORIGIN, "https://evil.invalid", "null"),
    "x-workspace-id": headerValue,
    cookie: fc.oneof(
      headerValue,
      fc.constant("idv.session=x; next-auth.session-token=%00"),
      fc.constantFrom(...CALLBACK_URLS).map((v) => `next-auth.callback-url=${encodeURIComponent(v)}`),
      fc.constantFrom(...CALLBACK_URLS).map((v) => `__Secure-next-auth.callback-url=${v}`),
    ),
  },
  { requiredKeys: [] },
);

function caseArb(route: TRoute, method: TMethod): fc.Arbitrary<TCase> {
  const def = route.defs[method];
  const right = rightAuth(route, def);
  // a GET has no body (the Fetch API cannot send one, nor can most clients): break its query
  const hasBody = method !== "GET";
  return MUTATIONS.chain((m) => {
    const mutation = !hasBody && (m === "body" || m === "raw-body") ? "query" : m;
    return fc
      .record({
        path: pathArb(route, mutation === "path"),
        query: queryArb(route, def, method, mutation === "query"),
        auth: mutation === "auth" ? otherAuth() : fc.constant(right),
        body: hasBody
          ? bodyArb(route, def, mutation === "body" ? "leaf" : mutation === "raw-body" ? "raw" : "clean")
          : fc.constant<TBody>(["", undefined]),
        contentType: mutation === "content-type" ? fc.constantFrom(...CONTENT_TYPES) : fc.constant(null),
        extra: mutation === "headers" ? extraHeaders : fc.constant({}),
        ip: fc.ipV4(),
      })
      .map(({ path: p, query, auth, body, contentType, extra, ip }): TCase => {
        const headers: Record<string, string> = { ...extra, ...auth, "x-forwarded-for": ip };
        const type = contentType ?? body[0];
        if (type) headers["content-type"] = type;
        return {
          method,
          path: p,
          query: query.map(([k, v]) => [wellFormed(k), wellFormed(v)]),
          headers,
          ...(body[1] !== undefined ? { body: body[1] } : {}),
        };
      });
  });
}

// ---- what every response must look like --------------------------------------------------------

function describeCase(c: TCase): string {
  const q = new URLSearchParams(c.query).toString();
  return `${c.method} ${c.path}${q ? `?${q}` : ""} headers=${JSON.stringify(c.headers).slice(0, 300)} body=${JSON.stringify(c.body ?? null).slice(0, 300)}`;
}

/** The stored connection a request to `pathname` may change, as JSON (null: none, or not such a path). */
async function storedConnection(pathname: string): Promise<string | null> {
  const m = /^\/api\/(sandbox|production)\/v1\/operator\/connections\/([A-Za-z0-9_]+)$/.exec(pathname);
  if (!m) return null;
  const row = await kysely()
    .selectFrom("providerConnections")
    .selectAll()
    .where("environment", "=", m[1] === "production" ? "production" : "sandbox")
    .where("providerId", "=", m[2]!)
    .executeTakeFirst();
  return JSON.stringify(row ?? null);
}

/** A VALIDATION_ERROR of the connections' endpoints names the field(s) it refuses. */
function namesItsField(body: unknown): boolean {
  const error = (body as { error?: { code?: unknown; details?: unknown } } | undefined)?.error;
  if (error?.code !== "VALIDATION_ERROR") return true;
  const details = error.details;
  return (
    Array.isArray(details) &&
    details.length > 0 &&
    details.every(
      (d) => typeof (d as { path?: unknown }).path === "string" && (d as { path: string }).path !== "",
    )
  );
}

async function send(route: TRoute, c: TCase): Promise<void> {
  cases++;
  const url = new URL(c.path, ORIGIN);
  for (const [k, v] of c.query) url.searchParams.append(k, v);
  const isConnection = route.template.includes("/operator/connections");
  const changes = isConnection && (c.method === "PUT" || c.method === "DELETE");
  const before = changes ? await storedConnection(url.pathname) : null;
  let response: Response;
  try {
    response = await dispatch(
      new Request(url, { method: c.method, headers: c.headers, body: c.body ?? null }),
    );
  } catch (err) {
    throw new Error(`the handler threw (a 500 in production): ${(err as Error).stack}\n${describeCase(c)}`);
  }
  const text = await response.text();
  const status = response.status;
  const fail = (why: string) => {
    throw new Error(`${why}: ${status} ${text.slice(0, 400)}\n${describeCase(c)}`);
  };
  if (process.env.FUZZ_VERBOSE) console.log(`${status} ${describeCase(c)}`);
  if (status >= 500) fail("server error");
  const key = `${route.template} ${c.method} ${status}`;
  stats.set(key, (stats.get(key) ?? 0) + 1);
  // the router's own 404 / 405 (no route for a path `..` resolved elsewhere, a method the route
  // file does not export): Next.js answers those itself; every response of ours has a request id
  if ((status === 404 || status === 405) && text === "" && !response.headers.has("x-request-id")) return;
  // the REST wrapper logs every request it gets (the REST /token is documented but speaks OAuth)
  // (a path that URL parsing resolves elsewhere, `a/%2e%2e/b`, reaches another route)
  if (route.surface === "rest" && route.defs[c.method as TMethod] && url.pathname === c.path) {
    const env = url.pathname.split("/")[2];
    const requestId = response.headers.get("x-request-id");
    if ((env === "sandbox" || env === "production") && requestId) {
      loggedRequestIds.push(requestId);
      loggedRequests.set(requestId, `${c.method} ${c.path} → ${status}`);
    }
  }
  if (status < 400) return;
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (isConnection && status === 400 && !namesItsField(body)) fail("a connection's 400 names no field");
  if (changes && (await storedConnection(url.pathname)) !== before) fail("a refused change was stored");
  const error = (body as { error?: unknown } | undefined)?.error;
  const type = response.headers.get("content-type") ?? "";
  const isEnvelope =
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string" &&
    typeof (error as { message?: unknown }).message === "string";
  switch (route.surface) {
    case "rest":
    case "tls":
      if (route.surface === "tls" && status === 404 && (body as { allowed?: unknown })?.allowed === false)
        return;
      if (!isEnvelope || typeof (error as { requestId?: unknown }).requestId !== "string")
        fail("not the REST error envelope");
      return;
    case "oauth":
      if (status === 404 && route.segments[0] === "oidc" && !isEnvelope && text) return; // unknown environment
      if (typeof error !== "string" && !isEnvelope) fail("not an OAuth error body");
      return;
    case "op-page":
      if (status === 404 && text) return; // unknown environment
      if (!type.includes("text/html") || !text.includes("data-error=")) fail("not the OP error page");
      return;
    case "hosted":
      if (type.includes("json") ? !isEnvelope : !text) fail("not the hosted pages' error shape");
      return;
    case "next-auth":
      return;
  }
}

/**
 * The sign-in rate limit check the next-auth route runs on the form's email and the client address,
 * on its own, with the nasty input.
 */
async function fuzzSignInCheck(): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(nastyString, fc.constant("fuzz@example.test")),
      fc.oneof(fc.ipV4(), headerValue),
      async (email, forwardedFor) => {
        cases++;
        const ip = clientIp(new Headers({ "x-forwarded-for": forwardedFor }));
        try {
          await checkSignInLimits(email, ip);
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500) {
            throw new Error(
              `sign-in check failed for ${JSON.stringify([email, ip])}: ${(err as Error).stack}`,
            );
          }
        }
      },
    ),
    { seed: SEED, numRuns: RUNS },
  );
}

// ---- raw requests through the production server's listener --------------------------------------

/** Methods Node.js's parser accepts: the served ones and some no route serves. */
const RAW_METHODS = [
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "MKCOL",
  "LOCK",
  "PURGE",
  "SEARCH",
  "REPORT",
];

/** A path segment as raw bytes of a request line: percent-escapes of any byte, broken escapes, URL characters. */
const rawSegment = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, "0").toUpperCase()}`),
      fc.constantFrom(
        "%",
        "%z",
        "%zz",
        "%C3",
        "%E2%82",
        "%ED%A0%80",
        "%C0%AF",
        "%2e%2e",
        "a",
        "-",
        ".",
        "..",
        "~",
        "!",
        "$",
        "'",
        "(",
        "*",
        "+",
        ",",
        ";",
        "=",
        ":",
        "@",
      ),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(""));

type TRawBody = "none" | "small" | "declared-huge" | "chunked";

interface TRawCase {
  method: string;
  path: string;
  query: string;
  body: TRawBody;
  cookie?: string;
}

function rawCaseArb(): fc.Arbitrary<TRawCase> {
  return fc
    .record({
      route: fc.constantFrom(...routes),
      method: fc.constantFrom(...RAW_METHODS),
      broken: fc.nat(),
      segment: rawSegment,
      query: fc.oneof(
        fc.constant(""),
        fc.constantFrom(...CALLBACK_URLS).map((v) => `?callbackUrl=${encodeURIComponent(v)}`),
        rawSegment.map((v) => `?${v}=${v}`),
      ),
      body: fc.constantFrom<TRawBody>("none", "small", "declared-huge", "chunked"),
      cookie: fc.option(
        fc.constantFrom(...CALLBACK_URLS).map((v) => `next-auth.callback-url=${encodeURIComponent(v)}`),
        { nil: undefined },
      ),
    })
    .chain(({ route, broken, segment, ...rest }) =>
      pathArb(route, false).map((good): TRawCase => {
        const parts = good.split("/");
        // one segment (never the first, empty one) replaced by the raw one, or the raw one appended
        const at = 1 + (broken % parts.length);
        parts[at] = segment;
        return { ...rest, path: parts.join("/") };
      }),
    );
}

/** The production server's listener in front of the in-process router, Next.js's part played by `dispatch`. */
async function startRawServer(): Promise<{ port: number; close(): Promise<void> }> {
  registerFastPathHooks(OP_PAGE);
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) =>
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (["connection", "transfer-encoding", "keep-alive"].includes(name) || value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      }
      const method = req.method ?? "GET";
      let response: Response;
      try {
        response = await dispatch(
          new Request(`${ORIGIN}${req.url}`, {
            method,
            headers,
            ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }),
          }),
        );
      } catch (err) {
        response = new Response(`the handler threw: ${(err as Error).stack}`, { status: 599 });
      }
      // next.config.mjs gives every answer nosniff
      await writeResponse(res, response, { "X-Content-Type-Options": "nosniff" });
    })();
  const server = http.createServer(serverOptions(2_000), requestListener({ port: 3000, handle }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One raw exchange (`Connection: close`): the answer's status, headers and body as text. */
function sendRaw(port: number, c: TRawCase): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const head = [`${c.method} ${c.path}${c.query} HTTP/1.1`, "Host: localhost:3000", "Connection: close"];
    if (c.cookie) head.push(`Cookie: ${c.cookie}`);
    if (c.body === "small") head.push("Content-Type: application/x-www-form-urlencoded", "Content-Length: 7");
    if (c.body === "declared-huge")
      head.push("Content-Type: application/json", `Content-Length: ${64 * 1024 * 1024}`);
    if (c.body === "chunked") head.push("Content-Type: application/json", "Transfer-Encoding: chunked");
    let text = "";
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(`${head.join("\r\n")}\r\n\r\n`);
      if (c.body === "small") socket.write("a=1&b=2");
      if (c.body === "chunked") socket.write("2\r\n{}\r\n0\r\n\r\n");
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in 10 s to ${head[0]}`));
    }, 10_000);
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no answer to ${head[0]}: ${JSON.stringify(text)}`));
      resolve({
        status: Number(text.slice(9, 12)),
        head: text.slice(0, end).toLowerCase(),
        body: text.slice(end + 4),
      });
    });
  });
}

async function fuzzRawRequests(): Promise<void> {
  const server = await startRawServer();
  try {
    await fc.assert(
      fc.asyncProperty(rawCaseArb(), async (c) => {
        cases++;
        const what = `${c.method} ${c.path}${c.query} body=${c.body} cookie=${c.cookie ?? ""}`;
        const res = await sendRaw(server.port, c);
        if (process.env.FUZZ_VERBOSE) console.log(`${res.status} ${what}`);
        if (res.status >= 500 || !res.status)
          throw new Error(`server error: ${res.status} ${res.body.slice(0, 600)}\n${what}`);
        if (!res.head.includes("x-content-type-options: nosniff"))
          throw new Error(`no nosniff: ${res.head}\n${what}`);
        // the listener's own refusals: the REST or hosted envelope, an OAuth body or the OP's page
        if (
          [400, 405, 408, 413].includes(res.status) &&
          res.head.includes("application/json") &&
          c.method !== "HEAD"
        ) {
          const body = JSON.parse(res.body) as { error?: unknown };
          if (body.error === undefined) throw new Error(`no error body: ${res.body}\n${what}`);
        }
      }),
      { seed: SEED, numRuns: RUNS * 4 },
    );
  } finally {
    await server.close();
  }
}

// ---- provider connections: each adapter's settings, broken one value at a time -----------------

const FUZZ_JWKS = {
  keys: [
    {
      kty: "EC",
      crv: "P-256",
      x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
      y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    },
  ],
};
const FUZZ_CLIENT_SECRET = "fuzz-client-secret-0123456789";

/** Settings each adapter accepts (an upstream nothing answers: a check fails fast). */
function validSettings(): Record<string, Record<string, unknown>> {
  const settings: Record<string, Record<string, unknown>> = {
    oidc: {
      issuer: "http://127.0.0.1:9/fuzz-upstream",
      clientId: "fuzz-broker",
      clientSecret: FUZZ_CLIENT_SECRET,
      scopes: ["openid", "profile"],
      // the same name on both sides: valid whichever way the mapping reads
      claimMapping: { given_name: "given_name", family_name: "family_name" },
      acrToLoa: { eidas1: 1, eidas2: 2 },
      authorizationParameters: { acr_values: "eidas2", prompt: "login" },
      allowInsecureRequests: true,
    },
    wallet: {
      issuers: { "https://pid.example.test": FUZZ_JWKS },
      vct: ["urn:eu.europa.ec.eudi:pid:1"],
      loa: 2,
    },
  };
  if ((CONNECTION_ADAPTERS as readonly string[]).includes("saml")) {
    settings.saml = {
      metadataXml: startSamlIdp("<unused/>").metadataXml,
      spEntityId: "https://broker.example.test/saml/sp",
      spSigningCertificate: fixture("sp-signing-cert.pem"),
      spSigningPrivateKey: fixture("sp-signing-key.pem"),
      spEncryptionCertificate: fixture("sp-encryption-cert.pem"),
      spEncryptionPrivateKey: fixture("sp-encryption-key.pem"),
      forceAuthn: true,
      attributeConsumingServiceIndex: 1,
      organization: { name: "Fuzz", displayName: "Fuzz", url: "https://broker.example.test", lang: "it" },
      contactPerson: [{ type: "technical", email: "fuzz@broker.example.test" }],
    };
  }
  return settings;
}

const CONNECTION_PROVIDERS = ["fr_franceconnect", "eudi_wallet", "nl_digid", "passport"];

type TConnectionAction =
  | { kind: "put"; providerId: string; body: string; contentType: string; adapter: string }
  | { kind: "delete" | "check" | "get"; providerId: string }
  | { kind: "list" };

function connectionActionArb(): fc.Arbitrary<TConnectionAction> {
  const good = validSettings();
  const adapters = Object.keys(good);
  const provider = fc.constantFrom(...CONNECTION_PROVIDERS);
  const put = fc
    .record({
      providerId: provider,
      adapter: fc.constantFrom(...adapters),
      // the settings of another adapter, now and then
      settingsOf: fc.oneof(
        { arbitrary: fc.constant(""), weight: 5 },
        { arbitrary: fc.constantFrom(...adapters), weight: 1 },
      ),
      enabled: fc.oneof(
        { arbitrary: fc.boolean(), weight: 8 },
        { arbitrary: fc.jsonValue({ maxDepth: 0 }), weight: 1 },
      ),
      // which secret to leave out (kept from the stored connection, or missing)
      omit: fc.option(fc.nat(), { freq: 4 }),
      mode: fc.constantFrom("valid", "valid", "valid", "leaf", "leaf", "leaf", "leaf", "settings", "raw"),
      // mostly a provider the adapter may connect (wallet connects wallet providers only)
      fitting: fc.boolean(),
      leaf: withOneBroken(fc.constant(null), true),
      settingsJunk: fc.jsonValue({ maxDepth: 2 }),
      raw: oddBody,
      n: fc.nat(),
      bad: fc.oneof(nastyString, fc.jsonValue({ maxDepth: 2 })),
      badKey: fc.option(nastyString, { freq: 3 }),
    })
    .map((raw): TConnectionAction => {
      const r = {
        ...raw,
        providerId: raw.fitting
          ? raw.adapter === "wallet"
            ? "eudi_wallet"
            : "fr_franceconnect"
          : raw.providerId,
      };
      const settings: Record<string, unknown> = { ...good[r.settingsOf || r.adapter]! };
      const secrets = SECRET_FIELDS[r.adapter as keyof typeof SECRET_FIELDS] ?? [];
      if (r.omit !== null && secrets.length) delete settings[secrets[r.omit % secrets.length]!];
      let body: unknown = { adapter: r.adapter, enabled: r.enabled, settings };
      if (r.mode === "leaf") body = breakOne(body, r.n, r.bad, r.badKey ?? undefined);
      if (r.mode === "settings") body = { adapter: r.adapter, enabled: true, settings: r.settingsJunk };
      if (r.mode === "raw") {
        return {
          kind: "put",
          providerId: r.providerId,
          adapter: r.adapter,
          contentType: r.raw[0],
          body: r.raw[1] ?? "",
        };
      }
      return {
        kind: "put",
        providerId: r.providerId,
        adapter: r.adapter,
        contentType: "application/json",
        body: JSON.stringify(body),
      };
    });
  return fc.oneof(
    { arbitrary: put, weight: 12 },
    {
      arbitrary: fc.record({
        kind: fc.constantFrom<"delete" | "check" | "get">("delete", "check", "get"),
        providerId: provider,
      }),
      weight: 3,
    },
    { arbitrary: fc.constant<TConnectionAction>({ kind: "list" }), weight: 1 },
  );
}

/** Secrets a PUT body carries (strings long enough to find in an answer). */
function secretsIn(body: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const settings = (parsed as { settings?: unknown } | null)?.settings;
  if (typeof settings !== "object" || settings === null) return [];
  const names = new Set(Object.values(SECRET_FIELDS).flat());
  return Object.entries(settings)
    .filter(([k, v]) => names.has(k) && typeof v === "string" && v.length >= 12)
    .map(([, v]) =>
      (v as string)
        .replace(/-----[^-]+-----/g, "")
        .trim()
        .slice(0, 40),
    )
    .filter((v) => v.length >= 12);
}

async function fuzzConnections(): Promise<void> {
  const base = `${ORIGIN}/api/sandbox/v1/operator/connections`;
  await fc.assert(
    fc.asyncProperty(connectionActionArb(), async (a) => {
      cases++;
      const path = a.kind === "list" ? "" : `/${a.providerId}${a.kind === "check" ? "/check" : ""}`;
      const method = { put: "PUT", delete: "DELETE", check: "POST", get: "GET", list: "GET" }[a.kind];
      const headers: Record<string, string> = { ...bearer(world.operatorKey) };
      if (a.kind === "put" && a.contentType) headers["content-type"] = a.contentType;
      const body = a.kind === "put" ? a.body : a.kind === "check" ? "{}" : undefined;
      if (a.kind === "check") headers["content-type"] = "application/json";
      const stored =
        a.kind === "list"
          ? null
          : await storedConnection(`/api/sandbox/v1/operator/connections/${a.providerId}`);
      const response = await dispatch(new Request(`${base}${path}`, { method, headers, body: body ?? null }));
      const text = await response.text();
      const what = `${method} ${path} ${(body ?? "").slice(0, 600)}`;
      const fail = (why: string) => {
        throw new Error(`${why}: ${response.status} ${text.slice(0, 600)}\n${what}`);
      };
      if (process.env.FUZZ_VERBOSE) console.log(`${response.status} ${what.slice(0, 200)}`);
      if (response.status >= 500) fail("server error");
      const key = `connections ${a.kind}${a.kind === "put" ? ` ${a.adapter}` : ""} ${response.status}`;
      stats.set(key, (stats.get(key) ?? 0) + 1);
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        fail("not JSON");
      }
      if (response.status >= 400) {
        const error = (json as { error?: { code?: unknown; requestId?: unknown } } | undefined)?.error;
        if (typeof error?.code !== "string" || typeof error.requestId !== "string")
          fail("not the REST error envelope");
        if (response.status === 400 && !namesItsField(json)) fail("a 400 that names no field");
        if (a.kind === "put" || a.kind === "delete") {
          const after = await storedConnection(`/api/sandbox/v1/operator/connections/${a.providerId}`);
          if (after !== stored) fail("a refused change was stored");
        }
        return;
      }
      if (a.kind === "put") {
        for (const secret of secretsIn(a.body)) if (text.includes(secret)) fail("a secret came back");
        const row = await kysely()
          .selectFrom("providerConnections")
          .select("adapter")
          .where("environment", "=", "sandbox")
          .where("providerId", "=", a.providerId)
          .executeTakeFirst();
        if (row?.adapter !== a.adapter) fail("the accepted connection is not the one stored");
      }
    }),
    { seed: seedFor("connections", "PUT"), numRuns: RUNS * 4 },
  );
}

/** One seed per route and method (derived from SEED), so routes do not share a random stream. */
function seedFor(template: string, method: string): number {
  let h = SEED;
  for (const ch of `${method} ${template}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

// ---- the campaign ------------------------------------------------------------------------------

let routes: TRoute[] = [];

beforeAll(async () => {
  dns = await startTestDnsServer();
  for (const name of ["IDV_DNS_SERVERS", "IDV_DNS_TIMEOUT_MS", "IDV_DNS_TRIES"]) {
    savedEnv[name] = process.env[name];
  }
  // domain checks ask a local DNS server that answers NXDOMAIN at once
  process.env.IDV_DNS_SERVERS = dns.address;
  process.env.IDV_DNS_TIMEOUT_MS = "200";
  process.env.IDV_DNS_TRIES = "1";
  routes = await routeTable();
  world = await makeWorld();
}, 120_000);

afterAll(async () => {
  if (process.env.FUZZ_STATS) {
    console.log([...stats].map(([k, n]) => `${n}\t${k}`).join("\n"));
    console.log(`${cases} cases`);
  }
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await dns.close();
});

describe("fuzz campaign over every route", () => {
  it("finds every route file, and every REST endpoint definition on its route", async () => {
    const table = await routeTable();
    expect(table.length).toBeGreaterThan(90);
    const found = table.flatMap((r) => Object.values(r.defs).map((d) => `${d.method} ${d.path}`));
    expect(ALL_ENDPOINTS.map((d) => `${d.method} ${d.path}`).filter((op) => !found.includes(op))).toEqual([]);
  });

  // one test per route file, so a failure names the route
  const files: { file: string; segments: string[] }[] = [];
  collect(appDir, [], files);
  for (const { segments } of files.sort((a, b) => a.file.localeCompare(b.file))) {
    const template = `/${segments.join("/")}`;
    const only = process.env.FUZZ_ONLY;
    it.skipIf(only !== undefined && !template.includes(only))(
      `${template}: no 5xx, the surface's error shape on every 4xx`,
      async () => {
        const route = routes.find((r) => r.template === template)!;
        await ensureWorld();
        for (const method of METHODS) {
          const exported = route.methods.includes(method);
          // what the route checks before next-auth, on its own
          if (route.surface === "next-auth" && exported) await fuzzSignInCheck();
          await fc.assert(
            fc.asyncProperty(caseArb(route, method), (c) => send(route, c)),
            { seed: seedFor(template, method), numRuns: exported ? RUNS : WRONG_METHOD_RUNS },
          );
        }
      },
      300_000,
    );
  }

  it.skipIf(process.env.FUZZ_ONLY !== undefined && !"/operator/connections".includes(process.env.FUZZ_ONLY))(
    "provider connections: each adapter's settings broken one value at a time, among deletes, checks and reads",
    async () => {
      await ensureWorld();
      await fuzzConnections();
    },
    300_000,
  );

  it.skipIf(process.env.FUZZ_ONLY !== undefined)(
    "raw request lines through the production server's listener: any method, any escape, any body",
    async () => {
      await ensureWorld();
      await fuzzRawRequests();
    },
    300_000,
  );

  it.skipIf(process.env.FUZZ_ONLY !== undefined)(
    `ran ${RUNS} cases per method (seed ${SEED}), and every REST request reached the request log`,
    async () => {
      // ~143 cases per run count (every route, its methods, the wrong ones): 10,000+ by default
      expect(cases).toBeGreaterThanOrEqual(RUNS * 140);
      expect(loggedRequestIds.length).toBeGreaterThan(RUNS * 50);
      await flushRequestLog();
      const found = new Set<string>();
      for (let i = 0; i < loggedRequestIds.length; i += 1000) {
        const rows = await kysely()
          .selectFrom("apiRequestLogs")
          .select("id")
          .where("id", "in", loggedRequestIds.slice(i, i + 1000))
          .execute();
        for (const r of rows) found.add(r.id);
      }
      const missing = loggedRequestIds.filter((id) => !found.has(id)).map((id) => loggedRequests.get(id));
      expect(missing).toEqual([]);
    },
  );
});
