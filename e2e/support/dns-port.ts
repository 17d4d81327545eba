/**
 * The e2e server resolves custom domains only at one fixed port (E2E_DNS_PORT): specs that need
 * DNS answers take turns on it. A spec that finds the port taken waits for the other to close its
 * server (Playwright runs spec files in parallel), rather than failing with EADDRINUSE.
 */
import { startTestDnsServer, type TTestDnsServer } from "../../lib/testing/dns-server";
import { E2E_DNS_PORT } from "./env";

export async function startE2eDnsServer(waitMs = 150_000): Promise<TTestDnsServer> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return await startTestDnsServer({ port: E2E_DNS_PORT });
    } catch (err) {
      if ((err as { code?: string }).code !== "EADDRINUSE" || Date.now() > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
