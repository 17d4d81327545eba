/**
 * What code records into the process's metrics (lib/metrics/registry.ts). Each function bounds its
 * labels: methods to the HTTP methods the service serves, statuses to their number, the rest to
 * values the caller takes from a fixed set (catalog ids, outcomes, surfaces).
 */
import { metrics } from "./registry";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** One HTTP request answered: `route` is a route template of the build or a fixed prefix label. */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const verb = METHODS.has(method) ? method : "OTHER";
  const code = Number.isInteger(status) && status >= 100 && status <= 599 ? status : 0;
  const m = metrics();
  m.httpRequests.inc({ route, method: verb, status: String(code) });
  m.httpDuration.observe({ route, method: verb, status_class: `${Math.floor(code / 100)}xx` }, seconds);
  // every 429 of the service is a rate limit's
  if (code === 429) m.rateLimited.inc({ surface: surfaceOf(route) });
}

/** The surface of a route label: rest, op, hosted, console, operator, or other. */
export function surfaceOf(route: string): string {
  if (route.startsWith("/api/auth/")) return "console";
  if (route.startsWith("/api/")) return "rest";
  if (route.startsWith("/oidc/")) return "op";
  if (route.startsWith("/verify/") || route.startsWith("/sandbox/")) return "hosted";
  if (route.startsWith("/operator/")) return "operator";
  if (/^\/(console|signup|invite|forgot-password|reset-password)\//.test(route)) return "console";
  return "other";
}

/** A verification session created (`provider`: its provider id, or "workflow"). */
export function countSessionCreated(provider: string, environment: string): void {
  metrics().sessionsCreated.inc({ provider, environment });
}

/** A verification session ended with `outcome` (completed, failed, cancelled, expired). */
export function countSessionEnded(outcome: string, provider: string, environment: string): void {
  metrics().sessionsEnded.inc({ outcome, provider, environment });
}

/**
 * A webhook delivery attempt made (or refused without sending): its outcome — succeeded, retrying
 * (failed, another automatic attempt queued), failed (a redelivery that failed after an earlier
 * success), dead (failed for good, or refused) — and its trigger (automatic, manual).
 */
export function countWebhookAttempt(outcome: string, trigger: string): void {
  metrics().webhookDeliveries.inc({ outcome, trigger });
}

/** A call to an upstream identity provider, its outcome and duration. */
export function observeUpstream(provider: string, ok: boolean, seconds: number): void {
  const m = metrics();
  m.upstreamRequests.inc({ provider, outcome: ok ? "ok" : "error" });
  m.upstreamDuration.observe({ provider }, seconds);
}
