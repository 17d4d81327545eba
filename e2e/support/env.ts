/**
 * What the end-to-end server and the specs' CLI calls share. Both must reach the same embedded
 * PostgreSQL: the same data directory name under .data/ (a running server on it is reused).
 */
export const E2E_PORT = 3100;

/**
 * The UDP port of the DNS server e2e/console/domain.spec.ts runs on 127.0.0.1 while it needs one:
 * the server resolves custom domains only there (IDV_DNS_SERVERS), never in real DNS.
 */
export const E2E_DNS_PORT = 53535;

/**
 * The SMTP port of the mail catcher the Playwright global setup runs on 127.0.0.1
 * (e2e/support/global-setup.ts): the server sends every mail there, and the specs read it on the
 * development mailbox page, which IDV_DEV_MAILBOX turns on for this http-only server.
 */
export const E2E_SMTP_PORT = 2535;

export const E2E_ENV = {
  IDV_EMBEDDED_PG_NAME: "e2e-pg",
  IDV_EMBEDDED_PG_PORT: "54349",
  // a fixed, test-only key: the e2e database holds nothing worth protecting
  IDV_MASTER_KEY: "e2e-only-master-key-do-not-use-elsewhere-0123456789",
  // the origin the browsers use (baseURL): console writes must come from PUBLIC_URL's origin
  PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
  NEXT_TELEMETRY_DISABLED: "1",
  IDV_DNS_SERVERS: `127.0.0.1:${E2E_DNS_PORT}`,
  IDV_DNS_TIMEOUT_MS: "1000",
  SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
  IDV_DEV_MAILBOX: "1",
} as const;

/** Dedicated hosts the server is started with (IDV_HOSTS), exercised by e2e/hosts.spec.ts. */
export const E2E_HOSTS = {
  "api.sandbox.e2e.test": "/api/sandbox",
  "auth.e2e.test": "/oidc/production",
} as const;

/** The next-auth relying party of e2e/oidc (e2e/rp, `next dev`), and where it reads its client. */
export const RP_PORT = 3200;
export const RP_CONFIG_FILE = ".data/e2e-rp-client.json";
