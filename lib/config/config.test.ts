import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  config,
  ConfigError,
  loadConfig,
  parseSetting,
  publicUrl,
  resetConfigForTests,
  setVariable,
} from ".";
import { VARIABLES, ZEnvironment } from "./schema";

/** The ConfigError message loadConfig throws for `env` (fails the test when it parses). */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
}

describe("loadConfig: defaults", () => {
  it("gives every variable its documented default when the environment is empty", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      databaseUrl: undefined,
      databasePoolSize: 10,
      databaseConnectTimeoutMs: 5000,
      embeddedPgName: "pg",
      embeddedPgPort: 54329,
      port: 3000,
      hostname: "127.0.0.1",
      publicUrl: "http://localhost:3000",
      https: false,
      masterKey: undefined,
      production: false,
      jobs: true,
      jobConcurrency: 5,
      expirySweepMs: 5000,
      bodyTimeoutMs: 30_000,
      webhookAllowPrivateNetworks: false,
      webhookRetrySchedule: [1, 5, 30],
      webhookTimeoutMs: 10_000,
      webhookSweepGraceSeconds: 60,
      webhookConcurrency: 100,
      sessionTtlSeconds: 900,
      retentionDays: 30,
      sessionDeleteDays: 365,
      acrNamespace: "idv",
      upstreamOidc: {},
      walletTrustedIssuers: {},
      keyRotationDays: 90,
      cnameTarget: undefined,
      dnsServers: undefined,
      dnsTimeoutMs: 2000,
      dnsTries: 2,
      domainClaimDays: 7,
      signup: true,
      limits: {
        signUpIp: 20,
        invitationIp: 30,
        passwordChange: 10,
        signInEmail: 10,
        signInIp: 100,
        credentialIp: 300,
        credentialClient: 30,
        oidcAuthIp: 300,
        oidcUntouched: 300,
        hostedIp: 300,
        hostedSession: 60,
      },
      trustProxyHops: 0,
      oidcParTtlSeconds: 60,
      requestLog: true,
      requestLogRetentionDays: 14,
      logLevel: "info",
      logToStderr: false,
      validateResponses: false,
    });
    expect(c.hosts.size).toBe(0);
  });

  it("treats blank values as unset", () => {
    expect(loadConfig({ IDV_DNS_TRIES: "  ", PUBLIC_URL: "", IDV_SIGNUP: " " })).toMatchObject({
      dnsTries: 2,
      publicUrl: "http://localhost:3000",
      signup: true,
    });
  });

  it("derives the defaults that depend on another variable", () => {
    expect(loadConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig({ NODE_ENV: "development" }).webhookAllowPrivateNetworks).toBe(true);
    expect(loadConfig({ NODE_ENV: "development", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "0" })).toMatchObject({
      webhookAllowPrivateNetworks: false,
    });
    expect(loadConfig({ NODE_ENV: "production" }).production).toBe(true);
    expect(loadConfig({ NODE_ENV: "test" }).logLevel).toBe("silent");
    expect(loadConfig({ VITEST: "true" }).logLevel).toBe("silent");
    expect(loadConfig({ VITEST: "true", LOG_LEVEL: "debug" }).logLevel).toBe("debug");
  });
});

describe("loadConfig: values", () => {
  it("reads numbers as before: fractions where allowed, surrounding spaces, exponent notation", () => {
    const c = loadConfig({
      IDV_SESSION_TTL_SECONDS: "1.5",
      IDV_REQUEST_LOG_RETENTION_DAYS: "0.5",
      IDV_SIGNIN_LIMIT_IP: " 1e3 ",
      WEBHOOK_TIMEOUT_MS: " 250 ",
      WEBHOOK_SWEEP_GRACE_SECONDS: "0",
      WEBHOOK_CONCURRENCY: " 8 ",
      IDV_EXPIRY_SWEEP_MS: " 1000 ",
      IDV_TRUST_PROXY_HOPS: "2",
      DATABASE_CONNECT_TIMEOUT_MS: "0",
    });
    expect(c).toMatchObject({
      sessionTtlSeconds: 1.5,
      requestLogRetentionDays: 0.5,
      webhookTimeoutMs: 250,
      webhookSweepGraceSeconds: 0,
      webhookConcurrency: 8,
      expirySweepMs: 1000,
      trustProxyHops: 2,
      databaseConnectTimeoutMs: 0,
    });
    expect(c.limits.signInIp).toBe(1000);
  });

  it("keeps PUBLIC_URL without trailing slashes and knows when it is https", () => {
    expect(loadConfig({ PUBLIC_URL: " https://idv.example.com// " })).toMatchObject({
      publicUrl: "https://idv.example.com",
      https: true,
    });
  });

  it("reads switches, lists, host names and JSON settings", () => {
    const c = loadConfig({
      IDV_SIGNUP: "off",
      IDV_REQUEST_LOG: "off",
      IDV_JOBS: "on",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      IDV_VALIDATE_RESPONSES: "1",
      IDV_LOG_STDERR: "1",
      WEBHOOK_RETRY_SCHEDULE: " 0.2, 0.4 ,0.6 ",
      IDV_DNS_SERVERS: "127.0.0.1:5353, ::1 ,[::1]:53,",
      IDV_CNAME_TARGET: " Edge.Example.net. ",
      IDV_HOSTS: JSON.stringify({ "API.example.com": "/api/sandbox" }),
      IDV_UPSTREAM_OIDC: JSON.stringify({ "de-eid": { issuer: "https://eid.example" } }),
      IDV_MASTER_KEY: "  sixteen chars  ",
    });
    expect(c).toMatchObject({
      signup: false,
      requestLog: false,
      jobs: true,
      webhookAllowPrivateNetworks: true,
      validateResponses: true,
      logToStderr: true,
      webhookRetrySchedule: [0.2, 0.4, 0.6],
      dnsServers: ["127.0.0.1:5353", "::1", "[::1]:53"],
      cnameTarget: "edge.example.net",
      upstreamOidc: { "de-eid": { issuer: "https://eid.example" } },
      // a key is used exactly as given: it derives the encryption key
      masterKey: "  sixteen chars  ",
    });
    expect([...c.hosts]).toEqual([["api.example.com", "/api/sandbox"]]);
    expect(loadConfig({ IDV_DNS_SERVERS: " , " }).dnsServers).toBeUndefined();
  });
});

describe("loadConfig: refusals", () => {
  it.each([
    [{ WEBHOOK_TIMEOUT_MS: "abc" }, 'WEBHOOK_TIMEOUT_MS must be a number from 1 to 20000, got "abc"'],
    [{ WEBHOOK_TIMEOUT_MS: "20001" }, "WEBHOOK_TIMEOUT_MS must be a number from 1 to 20000"],
    [{ WEBHOOK_TIMEOUT_MS: "0" }, "WEBHOOK_TIMEOUT_MS must be a number from 1 to 20000"],
    [{ WEBHOOK_SWEEP_GRACE_SECONDS: "-1" }, "WEBHOOK_SWEEP_GRACE_SECONDS must be a number from 0 to 86400"],
    [{ WEBHOOK_CONCURRENCY: "0" }, "WEBHOOK_CONCURRENCY must be a positive integer"],
    [{ IDV_EXPIRY_SWEEP_MS: "50" }, 'IDV_EXPIRY_SWEEP_MS must be a number from 100 to 60000, got "50"'],
    [{ IDV_DNS_TRIES: "1.5" }, 'IDV_DNS_TRIES must be a positive integer, got "1.5"'],
    [{ IDV_DOMAIN_CLAIM_DAYS: "0" }, "IDV_DOMAIN_CLAIM_DAYS must be a positive integer"],
    [{ IDV_SIGNIN_LIMIT_EMAIL: "ten" }, "IDV_SIGNIN_LIMIT_EMAIL must be a positive integer"],
    [{ IDV_HOSTED_LIMIT_SESSION: "Infinity" }, "IDV_HOSTED_LIMIT_SESSION must be a positive integer"],
    [{ IDV_TRUST_PROXY_HOPS: "-1" }, "IDV_TRUST_PROXY_HOPS must be a whole number"],
    [{ IDV_SESSION_TTL_SECONDS: "-5" }, "IDV_SESSION_TTL_SECONDS must be a positive number"],
    [{ IDV_REQUEST_LOG_RETENTION_DAYS: "x" }, "IDV_REQUEST_LOG_RETENTION_DAYS must be a positive number"],
    [{ DATABASE_POOL_SIZE: "many" }, "DATABASE_POOL_SIZE must be a positive integer"],
    [{ PORT: "70000" }, "PORT must be a port number (1-65535)"],
    [{ IDV_EMBEDDED_PG_PORT: "x" }, "IDV_EMBEDDED_PG_PORT must be a port number (1-65535)"],
    [{ PUBLIC_URL: "idv.example.com" }, "PUBLIC_URL must be an absolute http(s) URL"],
    [{ PUBLIC_URL: "ftp://idv.example.com" }, "PUBLIC_URL must be an absolute http(s) URL"],
    [{ IDV_SIGNUP: "no" }, 'IDV_SIGNUP must be on or off, got "no"'],
    [{ IDV_JOBS: "0" }, "IDV_JOBS must be on or off"],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: "yes" }, "WEBHOOK_ALLOW_PRIVATE_NETWORKS must be 1, true, 0 or false"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent"],
    [
      { IDV_EMBEDDED_PG_NAME: "My Data" },
      "IDV_EMBEDDED_PG_NAME must be lowercase letters, digits and dashes",
    ],
    [{ IDV_CNAME_TARGET: "https://edge.example.net" }, "IDV_CNAME_TARGET must be a bare host name"],
    [{ IDV_DNS_SERVERS: "1.1.1.1,dns.example" }, "IDV_DNS_SERVERS must be comma-separated IP addresses"],
    [{ IDV_DNS_SERVERS: "1.1.1.1:99999" }, "IDV_DNS_SERVERS must be comma-separated IP addresses"],
    [{ IDV_HOSTS: "{" }, "IDV_HOSTS is not valid JSON"],
    [
      { IDV_HOSTS: JSON.stringify({ "a.example": "api" }) },
      'IDV_HOSTS must be a JSON object of host → path prefix at "a.example"',
    ],
    [
      { IDV_WALLET_TRUSTED_ISSUERS: "[1]" },
      "IDV_WALLET_TRUSTED_ISSUERS must be a JSON object of provider id → settings",
    ],
    [
      { WEBHOOK_RETRY_SCHEDULE: "1,,5" },
      'WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds ("" is not a number',
    ],
    [{ WEBHOOK_RETRY_SCHEDULE: "1,five" }, '"five" is not a number of seconds'],
    [{ WEBHOOK_RETRY_SCHEDULE: "-1" }, '"-1" is not a number of seconds'],
    [{ WEBHOOK_RETRY_SCHEDULE: "1e3" }, '"1e3" is not a number of seconds'],
    [{ WEBHOOK_RETRY_SCHEDULE: "100000" }, "100000 s is more than a day"],
    [{ WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 21 }, () => "1").join(",") }, "at most 20 retries"],
  ])("refuses %j", (env, message) => {
    expect(refusal(env)).toContain(message);
  });

  it("names every bad variable at once, each once", () => {
    const message = refusal({ IDV_DNS_TRIES: "-1.5", PORT: "0", IDV_SIGNUP: "on" });
    expect(message).toBe(
      'PORT must be a port number (1-65535), got "0"; IDV_DNS_TRIES must be a positive integer, got "-1.5"',
    );
  });

  it("never repeats the value of a secret", () => {
    const key = refusal({ IDV_MASTER_KEY: "short-secret" });
    expect(key).toBe("IDV_MASTER_KEY must be at least 16 characters");
    expect(refusal({ IDV_UPSTREAM_OIDC: '{"x": "clientSecret-1234"}' })).not.toContain("clientSecret-1234");
    expect(VARIABLES.DATABASE_URL.secret).toBe(true);
  });

  it("cuts long values short in the message", () => {
    const message = refusal({ IDV_DNS_SERVERS: "x".repeat(500) });
    expect(message.length).toBeLessThan(400);
    expect(message).toContain("…");
  });

  it("declares a default text for exactly the variables of the schema", () => {
    expect(Object.keys(VARIABLES).sort()).toEqual(Object.keys(ZEnvironment.shape).sort());
  });
});

describe("parseSetting", () => {
  const ZEntry = z.record(z.string(), z.object({ issuer: z.url() }));

  it("returns the parsed value", () => {
    expect(parseSetting("IDV_UPSTREAM_OIDC", ZEntry, { a: { issuer: "https://a.example" } })).toEqual({
      a: { issuer: "https://a.example" },
    });
  });

  it("throws a ConfigError naming the variable and the entry", () => {
    expect(() => parseSetting("IDV_UPSTREAM_OIDC", ZEntry, { a: { issuer: "nope" } })).toThrow(ConfigError);
    expect(() => parseSetting("IDV_UPSTREAM_OIDC", ZEntry, { a: { issuer: "nope" } })).toThrow(
      /^IDV_UPSTREAM_OIDC at "a\.issuer": /,
    );
  });
});

describe("config(): parsed once, read again after a change", () => {
  const saved = process.env.IDV_DNS_TRIES;
  afterEach(() => {
    if (saved === undefined) delete process.env.IDV_DNS_TRIES;
    else process.env.IDV_DNS_TRIES = saved;
  });

  it("returns the same object until the environment changes", () => {
    resetConfigForTests();
    const first = config();
    expect(config()).toBe(first);
    // the test setup (lib/testing/setup-env.ts) resets the cache on every change of process.env
    process.env.IDV_DNS_TRIES = "7";
    const second = config();
    expect(second).not.toBe(first);
    expect(second.dnsTries).toBe(7);
    expect(Object.isFrozen(second)).toBe(true);
  });

  it("setVariable sets the variable for this process and the next read", () => {
    setVariable("IDV_DNS_TRIES", "9");
    expect(process.env.IDV_DNS_TRIES).toBe("9");
    expect(config().dnsTries).toBe(9);
  });

  it("throws the ConfigError on every read while a value is bad", () => {
    process.env.IDV_DNS_TRIES = "many";
    expect(() => config()).toThrow('IDV_DNS_TRIES must be a positive integer, got "many"');
    expect(() => publicUrl()).toThrow(ConfigError);
  });
});
