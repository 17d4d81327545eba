/**
 * End-to-end tests against the production server (`npm run test:e2e` builds first).
 * The server runs on its own embedded PostgreSQL data directory (.data/e2e-pg), which the specs'
 * CLI calls reach too (a running embedded server on the same data directory is reused).
 * Browsers cannot be downloaded here (docs/design.md §4): Debian's Chromium is used when installed.
 */
import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { E2E_ENV, E2E_HOSTS, E2E_PORT as PORT, RP_CONFIG_FILE, RP_PORT } from "./e2e/support/env";

const SYSTEM_CHROMIUM = "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  // the SMTP server the e2e server sends its mail to (E2E_SMTP_PORT)
  globalSetup: "./e2e/support/global-setup.ts",
  outputDir: "test-results",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  timeout: 30_000,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: "on",
    trace: "retain-on-failure",
    headless: true,
    launchOptions: {
      ...(fs.existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        // the machines' network is closed: no background connections, no update checks
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: [
    {
      // builds nothing: `npm run test:e2e` runs `next build` before Playwright
      command: `node bin/idv.mjs serve --port ${PORT}`,
      url: `http://127.0.0.1:${PORT}/`,
      // the hosted-page specs run their webhook receiver on 127.0.0.1
      env: { ...E2E_ENV, IDV_HOSTS: JSON.stringify(E2E_HOSTS), WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1" },
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      // SIGTERM lets the launcher stop Next.js and then the embedded PostgreSQL it started
      gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    },
    {
      // the next-auth relying party of e2e/oidc (a second Next.js app, in development mode)
      command: `node node_modules/next/dist/bin/next dev e2e/rp --port ${RP_PORT} -H 127.0.0.1`,
      url: `http://127.0.0.1:${RP_PORT}/`,
      env: {
        NEXTAUTH_URL: `http://localhost:${RP_PORT}`,
        RP_CONFIG_FILE,
        IDV_JOBS: "off",
        NEXT_TELEMETRY_DISABLED: "1",
      },
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
