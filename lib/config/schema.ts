/**
 * Every environment variable the service reads, with its rule and default (one zod schema), and
 * what the README's configuration table says about it (VARIABLES). lib/config/index.ts turns the
 * parsed values into the typed configuration; readme.test.ts checks the table against this file.
 * Rules shared by every variable:
 * - unset and blank (only spaces) mean the same: the default;
 * - a value the rule refuses is a configuration error naming the variable and saying what it
 *   must be (the value itself is quoted unless the variable holds a secret);
 * - numbers, switches and lists may carry surrounding spaces; free text (keys, URLs of the
 *   database, names) is used exactly as given.
 * Pure: zod and the host-map parser only, so the proxy bundle can load it.
 */
import { isIP } from "node:net";
import { z } from "zod";
import { normalizeHost, parseHostMap } from "../http/hosts";

const blankAsUnset = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

/** A variable's schema: blank counts as unset, then `schema` (which supplies the default). */
function variable<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankAsUnset, schema);
}

function number(message: string) {
  return z.coerce.number({ error: message });
}

const POSITIVE_INTEGER = "must be a positive integer";
const positiveInteger = (fallback: number) =>
  variable(number(POSITIVE_INTEGER).int(POSITIVE_INTEGER).min(1, POSITIVE_INTEGER).default(fallback));

const WHOLE_NUMBER = "must be a whole number";
const wholeNumber = (fallback: number) =>
  variable(number(WHOLE_NUMBER).int(WHOLE_NUMBER).min(0, WHOLE_NUMBER).default(fallback));

const POSITIVE_NUMBER = "must be a positive number";
const positiveNumber = (fallback: number) =>
  variable(number(POSITIVE_NUMBER).positive(POSITIVE_NUMBER).default(fallback));

const between = (min: number, max: number, fallback: number) => {
  const message = `must be a number from ${min} to ${max}`;
  return variable(number(message).min(min, message).max(max, message).default(fallback));
};

const PORT = "must be a port number (1-65535)";
const port = (fallback: number) =>
  variable(number(PORT).int(PORT).min(1, PORT).max(65535, PORT).default(fallback));

/** `on` or `off` (the documented words of the IDV_* switches). */
const onOff = (fallback: "on" | "off") =>
  variable(
    z
      .string()
      .trim()
      .pipe(z.enum(["on", "off"], { error: "must be on or off" }))
      .default(fallback),
  ).transform((value) => value === "on");

/** `1`/`true` or `0`/`false`; unset stays undefined when the default depends on something else. */
const flag = () =>
  variable(
    z
      .string()
      .trim()
      .pipe(z.enum(["1", "true", "0", "false"], { error: "must be 1, true, 0 or false" }))
      .transform((value) => value === "1" || value === "true")
      .optional(),
  );

const text = () => variable(z.string().optional());

const PUBLIC_URL = "must be an absolute http(s) URL such as https://idv.example.com";
/** without trailing slashes; unset: http://localhost:$PORT (lib/config/index.ts) */
const publicUrl = variable(
  z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, error: PUBLIC_URL }))
    .transform((url) => url.replace(/\/+$/, ""))
    .optional(),
);

const hostName = variable(
  z
    .string()
    .trim()
    .transform((value, ctx) => {
      const host = normalizeHost(value);
      if (host && host === value.toLowerCase().replace(/\.$/, "")) return host;
      ctx.addIssue({ code: "custom", message: "must be a bare host name (no scheme, port or path)" });
      return z.NEVER;
    })
    .optional(),
);

/** `1.1.1.1`, `127.0.0.1:5353`, `::1` or `[::1]:53`: what node's resolver accepts. */
function isResolverAddress(entry: string): boolean {
  if (isIP(entry)) return true;
  const v4 = /^([\d.]+):(\d{1,5})$/.exec(entry);
  if (v4) return isIP(v4[1]!) === 4 && Number(v4[2]) >= 1 && Number(v4[2]) <= 65535;
  const v6 = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  return Boolean(v6 && isIP(v6[1]!) === 6 && (v6[2] === undefined || (+v6[2] >= 1 && +v6[2] <= 65535)));
}

const dnsServers = variable(
  z
    .string()
    .transform((value, ctx) => {
      const servers = value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (servers.every(isResolverAddress)) return servers;
      ctx.addIssue({
        code: "custom",
        message:
          "must be comma-separated IP addresses, each with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53)",
      });
      return z.NEVER;
    })
    .optional(),
);

export const MAX_WEBHOOK_RETRIES = 20;
export const MAX_WEBHOOK_RETRY_DELAY_SECONDS = 86_400;
export const MAX_WEBHOOK_TIMEOUT_MS = 20_000;

/** "1,5,30" → [1, 5, 30]: seconds (fractions allowed) before each retry. */
const retrySchedule = variable(
  z
    .string()
    .transform((value, ctx) => {
      const parts = value.split(",").map((p) => p.trim());
      const bad = parts.find((part) => !/^\d+(\.\d+)?$/.test(part));
      const tooLong = parts.find((part) => Number(part) > MAX_WEBHOOK_RETRY_DELAY_SECONDS);
      const why =
        parts.length > MAX_WEBHOOK_RETRIES
          ? `at most ${MAX_WEBHOOK_RETRIES} retries`
          : bad !== undefined
            ? `"${bad}" is not a number of seconds`
            : tooLong !== undefined
              ? `${tooLong} s is more than a day`
              : undefined;
      if (!why) return parts.map(Number);
      ctx.addIssue({ code: "custom", message: `must be comma-separated seconds (${why})` });
      return z.NEVER;
    })
    .default([1, 5, 30]),
);

/** A JSON object whose values are objects (provider id → its settings); the adapter checks each. */
const jsonObjects = variable(
  z
    .string()
    .transform((value, ctx) => {
      try {
        const json: unknown = JSON.parse(value);
        return json;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be JSON" });
        return z.NEVER;
      }
    })
    .pipe(
      z.record(z.string(), z.record(z.string(), z.unknown()), {
        error: "must be a JSON object of provider id → settings object",
      }),
    )
    .default({}),
);

const hostMap = variable(
  z
    .string()
    .transform((value, ctx) => {
      try {
        return parseHostMap(value);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: err instanceof Error ? err.message : String(err) });
        return z.NEVER;
      }
    })
    .optional(),
);

const SMTP_URL = "must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465";
/** nodemailer's connection URL: smtp:// (STARTTLS when offered) or smtps:// (TLS from the start) */
const smtpUrl = variable(
  z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^smtps?$/, error: SMTP_URL }))
    .optional(),
);

const OTLP_URL = "must be an absolute http(s) URL such as http://collector:4318";
/** OpenTelemetry's OTLP/HTTP endpoint (the base URL: traces go to …/v1/traces) */
const otlpUrl = variable(
  z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, error: OTLP_URL }))
    .optional(),
);

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** The environment as the service reads it: one entry per variable. */
export const ZEnvironment = z.object({
  DATABASE_URL: text(),
  DATABASE_POOL_SIZE: positiveInteger(10),
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber(5000),
  PORT: port(3000),
  HOSTNAME: variable(z.string().default("127.0.0.1")),
  PUBLIC_URL: publicUrl,
  IDV_MASTER_KEY: variable(z.string().min(16, "must be at least 16 characters").optional()),
  IDV_HOSTS: hostMap,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: flag(),
  WEBHOOK_RETRY_SCHEDULE: retrySchedule,
  WEBHOOK_TIMEOUT_MS: between(1, MAX_WEBHOOK_TIMEOUT_MS, 10_000),
  WEBHOOK_SWEEP_GRACE_SECONDS: between(0, 86_400, 60),
  WEBHOOK_CONCURRENCY: positiveInteger(100),
  IDV_SESSION_TTL_SECONDS: positiveNumber(900),
  IDV_RETENTION_DAYS: positiveNumber(30),
  IDV_SESSION_DELETE_DAYS: positiveNumber(365),
  IDV_ACR_NAMESPACE: variable(z.string().default("idv")),
  IDV_UPSTREAM_OIDC: jsonObjects,
  IDV_WALLET_TRUSTED_ISSUERS: jsonObjects,
  IDV_KEY_ROTATION_DAYS: positiveNumber(90),
  IDV_CNAME_TARGET: hostName,
  IDV_DNS_SERVERS: dnsServers,
  IDV_DNS_TIMEOUT_MS: positiveInteger(2000),
  IDV_DNS_TRIES: positiveInteger(2),
  IDV_DOMAIN_CLAIM_DAYS: positiveInteger(7),
  SMTP_URL: smtpUrl,
  MAIL_FROM: variable(
    z.string().trim().min(3, "must be an address such as IDV <no-reply@example.com>").optional(),
  ),
  IDV_DEV_MAILBOX: flag(),
  IDV_SIGNUP: onOff("on"),
  IDV_SIGNUP_LIMIT_IP: positiveInteger(20),
  IDV_INVITATION_LIMIT_IP: positiveInteger(30),
  IDV_PASSWORD_CHANGE_LIMIT: positiveInteger(10),
  IDV_CONSOLE_SESSION_MAX_HOURS: positiveNumber(168),
  IDV_PASSWORD_RESET_LIMIT_IP: positiveInteger(20),
  IDV_MAIL_LIMIT_EMAIL: positiveInteger(5),
  IDV_SIGNIN_LIMIT_EMAIL: positiveInteger(10),
  IDV_SIGNIN_LIMIT_IP: positiveInteger(100),
  IDV_CREDENTIAL_LIMIT_IP: positiveInteger(300),
  IDV_CREDENTIAL_LIMIT_CLIENT: positiveInteger(30),
  IDV_OIDC_AUTH_LIMIT_IP: positiveInteger(300),
  IDV_OIDC_UNTOUCHED_LIMIT: positiveInteger(300),
  IDV_OIDC_PAR_TTL_SECONDS: between(10, 600, 60),
  IDV_HOSTED_LIMIT_IP: positiveInteger(300),
  IDV_HOSTED_LIMIT_SESSION: positiveInteger(60),
  IDV_TRUST_PROXY_HOPS: wholeNumber(0),
  IDV_REQUEST_LOG_RETENTION_DAYS: positiveNumber(14),
  IDV_REQUEST_LOG: onOff("on"),
  IDV_JOBS: onOff("on"),
  IDV_FAST_PATH: onOff("on"),
  IDV_BODY_TIMEOUT_MS: between(1000, 600_000, 30_000),
  IDV_READY_TIMEOUT_MS: between(100, 60_000, 2000),
  IDV_SHUTDOWN_TIMEOUT_MS: between(1000, 600_000, 25_000),
  IDV_METRICS_TOKEN: variable(
    z
      .string()
      .trim()
      .min(16, "must be at least 16 characters")
      .regex(/^\S+$/, "must not contain spaces")
      .optional(),
  ),
  IDV_METRICS_PORT: variable(number(PORT).int(PORT).min(1, PORT).max(65535, PORT).optional()),
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
  OTEL_SERVICE_NAME: variable(z.string().trim().min(1, "must not be empty").default("idv-broker")),
  IDV_MAX_HEAP_MB: positiveInteger(256),
  JOB_CONCURRENCY: positiveInteger(5),
  IDV_EXPIRY_SWEEP_MS: between(100, 60_000, 5000),
  LOG_LEVEL: variable(
    z
      .string()
      .trim()
      .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }))
      .optional(),
  ),
  IDV_EMBEDDED_PG_NAME: variable(
    z
      .string()
      .regex(/^[a-z0-9-]+$/, "must be lowercase letters, digits and dashes")
      .default("pg"),
  ),
  IDV_EMBEDDED_PG_PORT: port(54329),
  // set by the tooling, not by operators (see VARIABLES)
  NODE_ENV: text(),
  VITEST: text(),
  IDV_VALIDATE_RESPONSES: flag(),
  IDV_LOG_STDERR: flag(),
});

export type TVariableName = keyof typeof ZEnvironment.shape;
export type TEnvironmentValues = z.infer<typeof ZEnvironment>;

export interface TVariableDoc {
  /** the Default column of the README's configuration table, verbatim */
  default: string;
  /** its value never appears in an error message */
  secret?: boolean;
  /** set by our tooling or the platform, so not in the README's table: who sets it */
  setBy?: string;
}

/** What the README's configuration table says about each variable (checked by readme.test.ts). */
export const VARIABLES: Record<TVariableName, TVariableDoc> = {
  DATABASE_URL: { default: "unset: embedded PostgreSQL under `.data/`", secret: true },
  DATABASE_POOL_SIZE: { default: "`10`" },
  DATABASE_CONNECT_TIMEOUT_MS: { default: "`5000`" },
  PORT: { default: "`3000`" },
  HOSTNAME: { default: "`127.0.0.1`" },
  PUBLIC_URL: { default: "`http://localhost:$PORT`" },
  IDV_MASTER_KEY: { default: "generated into `.data/master.key` in development", secret: true },
  IDV_HOSTS: { default: "unset" },
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: { default: "on under `npm run dev`, off otherwise" },
  WEBHOOK_RETRY_SCHEDULE: { default: "`1,5,30`" },
  WEBHOOK_TIMEOUT_MS: { default: "`10000`" },
  WEBHOOK_SWEEP_GRACE_SECONDS: { default: "`60`" },
  WEBHOOK_CONCURRENCY: { default: "`100`" },
  IDV_SESSION_TTL_SECONDS: { default: "`900`" },
  IDV_RETENTION_DAYS: { default: "`30`" },
  IDV_SESSION_DELETE_DAYS: { default: "`365`" },
  IDV_ACR_NAMESPACE: { default: "`idv`" },
  IDV_UPSTREAM_OIDC: { default: "unset", secret: true },
  IDV_WALLET_TRUSTED_ISSUERS: { default: "unset" },
  IDV_KEY_ROTATION_DAYS: { default: "`90`" },
  IDV_CNAME_TARGET: { default: "host of `PUBLIC_URL`" },
  IDV_DNS_SERVERS: { default: "system resolvers" },
  IDV_DNS_TIMEOUT_MS: { default: "`2000`" },
  IDV_DNS_TRIES: { default: "`2`" },
  IDV_DOMAIN_CLAIM_DAYS: { default: "`7`" },
  SMTP_URL: { default: "unset: no mail (`npm run dev` catches it)", secret: true },
  MAIL_FROM: { default: "`no-reply@` and the host of `PUBLIC_URL`" },
  IDV_DEV_MAILBOX: { default: "on under `npm run dev` without `SMTP_URL`" },
  IDV_SIGNUP: { default: "on" },
  IDV_SIGNUP_LIMIT_IP: { default: "`20`" },
  IDV_INVITATION_LIMIT_IP: { default: "`30`" },
  IDV_PASSWORD_CHANGE_LIMIT: { default: "`10`" },
  IDV_CONSOLE_SESSION_MAX_HOURS: { default: "`168`" },
  IDV_PASSWORD_RESET_LIMIT_IP: { default: "`20`" },
  IDV_MAIL_LIMIT_EMAIL: { default: "`5`" },
  IDV_SIGNIN_LIMIT_EMAIL: { default: "`10`" },
  IDV_SIGNIN_LIMIT_IP: { default: "`100`" },
  IDV_CREDENTIAL_LIMIT_IP: { default: "`300`" },
  IDV_CREDENTIAL_LIMIT_CLIENT: { default: "`30`" },
  IDV_OIDC_AUTH_LIMIT_IP: { default: "`300`" },
  IDV_OIDC_UNTOUCHED_LIMIT: { default: "`300`" },
  IDV_OIDC_PAR_TTL_SECONDS: { default: "`60`" },
  IDV_HOSTED_LIMIT_IP: { default: "`300`" },
  IDV_HOSTED_LIMIT_SESSION: { default: "`60`" },
  IDV_TRUST_PROXY_HOPS: { default: "`0`" },
  IDV_REQUEST_LOG_RETENTION_DAYS: { default: "`14`" },
  IDV_REQUEST_LOG: { default: "on" },
  IDV_JOBS: { default: "on" },
  IDV_FAST_PATH: { default: "on" },
  IDV_BODY_TIMEOUT_MS: { default: "`30000`" },
  IDV_READY_TIMEOUT_MS: { default: "`2000`" },
  IDV_SHUTDOWN_TIMEOUT_MS: { default: "`25000`" },
  IDV_METRICS_TOKEN: { default: "unset (no `/metrics` on the service's port)" },
  IDV_METRICS_PORT: { default: "unset" },
  OTEL_EXPORTER_OTLP_ENDPOINT: { default: "unset (no traces)" },
  OTEL_SERVICE_NAME: { default: "`idv-broker`" },
  IDV_MAX_HEAP_MB: { default: "`256`" },
  JOB_CONCURRENCY: { default: "`5`" },
  IDV_EXPIRY_SWEEP_MS: { default: "`5000`" },
  LOG_LEVEL: { default: "`info` (`silent` under tests)" },
  IDV_EMBEDDED_PG_NAME: { default: "`pg`" },
  IDV_EMBEDDED_PG_PORT: { default: "`54329`" },
  NODE_ENV: { default: "unset", setBy: "Next.js (`next dev`/`next start`, through `idv serve`) and vitest" },
  VITEST: { default: "unset", setBy: "vitest (logs are silent under tests)" },
  IDV_VALIDATE_RESPONSES: {
    default: "off",
    setBy: "the integration tests: every success response is checked against its documented schema",
  },
  IDV_LOG_STDERR: { default: "off", setBy: "bin/idv.mjs: CLI commands log on standard error" },
};
