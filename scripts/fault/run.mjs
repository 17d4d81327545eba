// The frame of the fault-injection scripts (scripts/fault-kill.mjs, scripts/fault-two-instances.mjs):
// the project root, numbers from the environment, log lines with the time since the start, and a
// run with a deadline that cleans up everything started (scripts/support/cleanup.mjs). The other
// pieces they share are in this folder: PostgreSQL (postgres.mjs), the production server
// (service.mjs), apps and sessions over the REST API (rest-api.mjs), the webhook receiver and
// the delivery figures (webhooks.mjs). Loopback only. Everything here is test tooling; nothing of
// it runs in the service.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cleanup } from "../support/cleanup.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
process.env.IDV_ROOT ??= ROOT;

/** A number from the environment variable `name`, or `fallback` when it is not set. */
export const envNumber = (name, fallback) => Number(process.env[name] ?? fallback);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const t0 = performance.now();
/** Seconds since the script started, for log lines. */
export const elapsed = () => ((performance.now() - t0) / 1000).toFixed(1).padStart(6);
export const log = (message) => console.log(`[${elapsed()} s] ${message}`);

/**
 * Runs `main` with a hard deadline; cleans up and sets the exit code (1 on failure or timeout).
 * `main` returns true when every check passed.
 */
export async function runScript(main, { maxSeconds }) {
  const watchdog = setTimeout(() => {
    console.error(`\nFAIL: the script ran longer than ${maxSeconds} s; stopping`);
    void cleanup().finally(() => process.exit(1));
  }, maxSeconds * 1000);
  let ok = false;
  try {
    ok = await main();
  } catch (err) {
    console.error(`\nFAIL: ${err.stack ?? err}`);
  } finally {
    await cleanup();
    clearTimeout(watchdog);
  }
  console.log(ok ? "\nRESULT: PASS" : "\nRESULT: FAIL");
  process.exit(ok ? 0 : 1);
}
