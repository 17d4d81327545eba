import { config } from "../config";

/** The cookie that carries the session id across the upstream round trip (/verify/callback). */
export const UPSTREAM_COOKIE = "idv_verification";

/** The Set-Cookie of a redirect to the upstream (30 minutes; Secure when served over https). */
export function upstreamCookie(verificationId: string): string {
  return `${UPSTREAM_COOKIE}=${verificationId}; Path=/verify; HttpOnly; SameSite=Lax; Max-Age=1800${
    config().https ? "; Secure" : ""
  }`;
}

export function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}
