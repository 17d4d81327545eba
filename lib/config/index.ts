/**
 * The service's configuration: every environment variable (lib/config/schema.ts) parsed into one
 * typed, frozen object.
 * Rules:
 * - `config()` parses on first use and keeps the object; getters, hot paths included, read it
 *   without parsing again;
 * - a bad value is a ConfigError naming each offending variable, and the service refuses to
 *   start on it: `idv serve` calls checkConfiguration() (./startup.ts) before anything else, each
 *   Next.js server parses in instrumentation.ts `register()`, and the CLI parses before it runs a
 *   command;
 * - code that sets a variable for itself and the processes it starts (the launcher's PORT and
 *   DATABASE_URL, the development master key) calls setVariable, which re-reads;
 * - tests change process.env freely: their setup (lib/testing/setup-env.ts) calls
 *   resetConfigForTests() on every change, so the next read sees it.
 * The cache is on globalThis: the proxy and the route handlers may be bundled apart yet share the
 * process (and a module re-imported by a test shares it too).
 * Outside this module, process.env is only handed on (to child processes, to next-auth as
 * NEXTAUTH_URL) and read for NEXT_RUNTIME, which Next.js inlines at build time (instrumentation.ts);
 * ./paths.ts reads IDV_ROOT (the installation root, set by scripts that run from elsewhere) at
 * import, before anything else.
 */
import type { z } from "zod";
import type { THostMap } from "../http/hosts";
import { VARIABLES, ZEnvironment, type TEnvironmentValues, type TVariableName } from "./schema";

export type { TVariableName } from "./schema";

/** One or more variables hold a value their rule refuses; the message names each of them. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join("; "));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export type TLogLevel = NonNullable<TEnvironmentValues["LOG_LEVEL"]>;

export interface TConfig {
  /** DATABASE_URL; unset: `idv serve` and the CLI start the embedded server and set it */
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  readonly databaseConnectTimeoutMs: number;
  readonly embeddedPgName: string;
  readonly embeddedPgPort: number;
  readonly port: number;
  readonly hostname: string;
  /** PUBLIC_URL without trailing slashes (default http://localhost:$PORT): the base of absolute URLs */
  readonly publicUrl: string;
  /** PUBLIC_URL is https: HSTS and Secure cookies */
  readonly https: boolean;
  readonly masterKey: string | undefined;
  /** NODE_ENV=production: the master key must be configured */
  readonly production: boolean;
  /** IDV_HOSTS: dedicated host → surface prefix (empty when unset) */
  readonly hosts: THostMap;
  readonly jobs: boolean;
  /** `idv serve`: /api/… and /oidc/… go straight to their route handlers (server/production.mjs) */
  readonly fastPath: boolean;
  /** `idv serve`: time a request body may take to arrive, in ms (408 after it; server/production.mjs) */
  readonly bodyTimeoutMs: number;
  /** IDV_READY_TIMEOUT_MS: the time the database gets to answer a readiness probe (lib/health). */
  readonly readyTimeoutMs: number;
  /** IDV_SHUTDOWN_TIMEOUT_MS: the time requests in flight get to finish after SIGTERM. */
  readonly shutdownTimeoutMs: number;
  /** IDV_METRICS_TOKEN: the bearer token of GET /metrics (lib/metrics/exposition.ts) */
  readonly metricsToken: string | undefined;
  /** IDV_METRICS_PORT: a port of its own for GET /metrics */
  readonly metricsPort: number | undefined;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where traces go (OTLP/HTTP); unset: no tracing (lib/tracing) */
  readonly otlpEndpoint: string | undefined;
  /** OTEL_SERVICE_NAME: the traces' service.name */
  readonly serviceName: string;
  /** `idv serve`: the production server's V8 old-space limit (--max-old-space-size), in MB */
  readonly maxHeapMb: number;
  readonly jobConcurrency: number;
  /** IDV_EXPIRY_SWEEP_MS: between two sweeps of each job worker's session expiry sweeper */
  readonly expirySweepMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS; unset: on under `npm run dev` (NODE_ENV=development) only */
  readonly webhookAllowPrivateNetworks: boolean;
  readonly webhookRetrySchedule: readonly number[];
  readonly webhookTimeoutMs: number;
  readonly webhookSweepGraceSeconds: number;
  /** webhook deliveries this instance has claimed and not yet recorded, at most */
  readonly webhookConcurrency: number;
  readonly sessionTtlSeconds: number;
  readonly retentionDays: number;
  readonly sessionDeleteDays: number;
  readonly acrNamespace: string;
  /** IDV_UPSTREAM_OIDC: provider id → settings, checked by lib/verifications/upstream.ts */
  readonly upstreamOidc: Readonly<Record<string, Record<string, unknown>>>;
  /** IDV_WALLET_TRUSTED_ISSUERS: provider id → settings, checked by lib/verifications/wallet.ts */
  readonly walletTrustedIssuers: Readonly<Record<string, Record<string, unknown>>>;
  readonly keyRotationDays: number;
  readonly cnameTarget: string | undefined;
  readonly dnsServers: readonly string[] | undefined;
  readonly dnsTimeoutMs: number;
  readonly dnsTries: number;
  readonly domainClaimDays: number;
  readonly signup: boolean;
  /** IDV_CONSOLE_SESSION_MAX_HOURS: a console session ends this long after its sign-in, however often renewed */
  readonly consoleSessionMaxHours: number;
  /** SMTP_URL: where mail goes (nodemailer); unset: no mail (lib/mail/transport.ts mailConfigured) */
  readonly smtpUrl: string | undefined;
  /** MAIL_FROM; default no-reply@<host of PUBLIC_URL> */
  readonly mailFrom: string;
  /** IDV_DEV_MAILBOX: the development mailbox page (/dev/mailbox) shows the caught mail */
  readonly devMailbox: boolean;
  /** points of the abuse limits (lib/rate-limit, lib/team/limits.ts) */
  readonly limits: {
    readonly signUpIp: number;
    readonly invitationIp: number;
    readonly passwordChange: number;
    readonly passwordResetIp: number;
    readonly mailEmail: number;
    readonly signInEmail: number;
    readonly signInIp: number;
    readonly credentialIp: number;
    readonly credentialClient: number;
    readonly oidcAuthIp: number;
    /** untouched OpenID Provider sessions per app and hour (lib/oidc/provider/untouched.ts) */
    readonly oidcUntouched: number;
    readonly hostedIp: number;
    readonly hostedSession: number;
  };
  readonly trustProxyHops: number;
  /** IDV_OIDC_PAR_TTL_SECONDS: lifetime of a pushed authorization request's request_uri (10–600) */
  readonly oidcParTtlSeconds: number;
  readonly requestLog: boolean;
  readonly requestLogRetentionDays: number;
  readonly logLevel: TLogLevel;
  readonly logToStderr: boolean;
  /** IDV_VALIDATE_RESPONSES=1 (the tests): success responses are checked against their documentation */
  readonly validateResponses: boolean;
}

function toConfig(env: TEnvironmentValues): TConfig {
  const underTests = env.NODE_ENV === "test" || Boolean(env.VITEST);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  return Object.freeze({
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseConnectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    embeddedPgName: env.IDV_EMBEDDED_PG_NAME,
    embeddedPgPort: env.IDV_EMBEDDED_PG_PORT,
    port: env.PORT,
    hostname: env.HOSTNAME,
    publicUrl,
    https: new URL(publicUrl).protocol === "https:",
    masterKey: env.IDV_MASTER_KEY,
    production: env.NODE_ENV === "production",
    hosts: env.IDV_HOSTS ?? new Map<string, string>(),
    jobs: env.IDV_JOBS,
    fastPath: env.IDV_FAST_PATH,
    bodyTimeoutMs: env.IDV_BODY_TIMEOUT_MS,
    readyTimeoutMs: env.IDV_READY_TIMEOUT_MS,
    shutdownTimeoutMs: env.IDV_SHUTDOWN_TIMEOUT_MS,
    metricsToken: env.IDV_METRICS_TOKEN,
    metricsPort: env.IDV_METRICS_PORT,
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: env.OTEL_SERVICE_NAME,
    maxHeapMb: env.IDV_MAX_HEAP_MB,
    jobConcurrency: env.JOB_CONCURRENCY,
    expirySweepMs: env.IDV_EXPIRY_SWEEP_MS,
    webhookAllowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? env.NODE_ENV === "development",
    webhookRetrySchedule: Object.freeze(env.WEBHOOK_RETRY_SCHEDULE),
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    webhookSweepGraceSeconds: env.WEBHOOK_SWEEP_GRACE_SECONDS,
    webhookConcurrency: env.WEBHOOK_CONCURRENCY,
    sessionTtlSeconds: env.IDV_SESSION_TTL_SECONDS,
    retentionDays: env.IDV_RETENTION_DAYS,
    sessionDeleteDays: env.IDV_SESSION_DELETE_DAYS,
    acrNamespace: env.IDV_ACR_NAMESPACE,
    upstreamOidc: env.IDV_UPSTREAM_OIDC,
    walletTrustedIssuers: env.IDV_WALLET_TRUSTED_ISSUERS,
    keyRotationDays: env.IDV_KEY_ROTATION_DAYS,
    cnameTarget: env.IDV_CNAME_TARGET,
    dnsServers: env.IDV_DNS_SERVERS?.length ? env.IDV_DNS_SERVERS : undefined,
    dnsTimeoutMs: env.IDV_DNS_TIMEOUT_MS,
    dnsTries: env.IDV_DNS_TRIES,
    domainClaimDays: env.IDV_DOMAIN_CLAIM_DAYS,
    signup: env.IDV_SIGNUP,
    consoleSessionMaxHours: env.IDV_CONSOLE_SESSION_MAX_HOURS,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? `no-reply@${new URL(publicUrl).hostname}`,
    devMailbox: env.IDV_DEV_MAILBOX ?? false,
    limits: Object.freeze({
      signUpIp: env.IDV_SIGNUP_LIMIT_IP,
      invitationIp: env.IDV_INVITATION_LIMIT_IP,
      passwordChange: env.IDV_PASSWORD_CHANGE_LIMIT,
      passwordResetIp: env.IDV_PASSWORD_RESET_LIMIT_IP,
      mailEmail: env.IDV_MAIL_LIMIT_EMAIL,
      signInEmail: env.IDV_SIGNIN_LIMIT_EMAIL,
      signInIp: env.IDV_SIGNIN_LIMIT_IP,
      credentialIp: env.IDV_CREDENTIAL_LIMIT_IP,
      credentialClient: env.IDV_CREDENTIAL_LIMIT_CLIENT,
      oidcAuthIp: env.IDV_OIDC_AUTH_LIMIT_IP,
      oidcUntouched: env.IDV_OIDC_UNTOUCHED_LIMIT,
      hostedIp: env.IDV_HOSTED_LIMIT_IP,
      hostedSession: env.IDV_HOSTED_LIMIT_SESSION,
    }),
    trustProxyHops: env.IDV_TRUST_PROXY_HOPS,
    oidcParTtlSeconds: env.IDV_OIDC_PAR_TTL_SECONDS,
    requestLog: env.IDV_REQUEST_LOG,
    requestLogRetentionDays: env.IDV_REQUEST_LOG_RETENTION_DAYS,
    logLevel: env.LOG_LEVEL ?? (underTests ? "silent" : "info"),
    logToStderr: env.IDV_LOG_STDERR ?? false,
    validateResponses: env.IDV_VALIDATE_RESPONSES ?? false,
  });
}

const MAX_QUOTED = 120;
const SECRETS: ReadonlySet<string> = new Set(
  Object.entries(VARIABLES)
    .filter(([, doc]) => doc.secret)
    .map(([name]) => name),
);

function quoted(raw: unknown): string {
  const text = String(raw);
  return JSON.stringify(text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text);
}

/** "IDV_DNS_TRIES must be a positive integer, got "x"": one line per variable (its first issue). */
function problemsOf(error: z.ZodError, env: Readonly<Record<string, string | undefined>>): string[] {
  const problems = new Map<string, string>();
  for (const issue of error.issues) {
    const name = String(issue.path[0]);
    if (problems.has(name) || !Object.hasOwn(VARIABLES, name)) continue;
    // the host-map parser's own messages already start with the variable's name
    const what = issue.message.startsWith(name) ? issue.message : `${name} ${issue.message}`;
    problems.set(name, SECRETS.has(name) ? what : `${what}, got ${quoted(env[name])}`);
  }
  return [...problems.values()];
}

/** Parses an environment (process.env or a test's own object); throws ConfigError. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): TConfig {
  const parsed = ZEnvironment.safeParse(env);
  if (!parsed.success) throw new ConfigError(problemsOf(parsed.error, env));
  const settings = toConfig(parsed.data);
  // the mailbox shows every caught mail, links included, to whoever opens the page
  if (settings.devMailbox && settings.production && settings.https) {
    throw new ConfigError([
      "IDV_DEV_MAILBOX must be off in production on https: the development mailbox shows every mail to anyone",
    ]);
  }
  return settings;
}

/**
 * Parses a setting whose schema belongs to a domain (the JSON settings of the upstream and wallet
 * adapters) with the same failure policy: a ConfigError naming the variable and the entry.
 */
export function parseSetting<T>(name: TVariableName, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length ? ` at "${issue.path.map(String).join(".")}"` : "";
    return `${name}${where}: ${issue.message}`;
  });
  throw new ConfigError(problems.slice(0, 3));
}

declare global {
  // shared by every bundle of the process (see the header)
  var idvConfig: TConfig | undefined;
}

/** The configuration of this process, parsed on first use; throws ConfigError. */
export function config(): TConfig {
  return (globalThis.idvConfig ??= loadConfig(process.env));
}

/** config().publicUrl: PUBLIC_URL without trailing slashes, default http://localhost:$PORT. */
export function publicUrl(): string {
  return config().publicUrl;
}

/** Sets a variable for this process and the processes it starts, and reads the configuration again. */
export function setVariable(name: Exclude<TVariableName, "NODE_ENV">, value: string): void {
  process.env[name] = value;
  globalThis.idvConfig = undefined;
}

/** Forgets the parsed configuration, so the next read sees process.env as it is now (tests). */
export function resetConfigForTests(): void {
  globalThis.idvConfig = undefined;
}
