/** The cookie that carries the session id across the upstream round trip (/verify/callback). */
export const UPSTREAM_COOKIE = "idv_verification";

export function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}
