/** Deployment settings of verifications (read from lib/config, which parses the environment once). */
import { config } from "../config";

/** Session time-to-live: IDV_SESSION_TTL_SECONDS, default 900 (15 minutes). */
export function sessionTtlSeconds(): number {
  return config().sessionTtlSeconds;
}

/** How long personal data of ended sessions is kept: IDV_RETENTION_DAYS, default 30. */
export function retentionDays(): number {
  return config().retentionDays;
}
