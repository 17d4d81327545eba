/** Deployment settings of verifications (environment variables, validated once). */
function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Session time-to-live: IDV_SESSION_TTL_SECONDS, default 900 (15 minutes). */
export function sessionTtlSeconds(): number {
  return positiveNumber("IDV_SESSION_TTL_SECONDS", 900);
}

/** How long personal data of ended sessions is kept: IDV_RETENTION_DAYS, default 30. */
export function retentionDays(): number {
  return positiveNumber("IDV_RETENTION_DAYS", 30);
}

export function publicUrl(): string {
  return (process.env.PUBLIC_URL ?? "http://localhost:3000").replace(/\/+$/, "");
}
