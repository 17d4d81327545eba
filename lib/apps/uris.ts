/**
 * Redirect URIs (OAuth 2.0 / RFC 8252 rules): absolute, no fragment, no credentials, at most
 * 2048 characters. https everywhere; http only for loopback hosts in production (any host in the
 * sandbox); private-use schemes (`com.example.app:/cb`) for native apps. Dangerous schemes
 * (javascript, data, file, vbscript, blob) are refused.
 */
import type { TEnvironment } from "../environments";

export const MAX_URI_LENGTH = 2048;
export const MAX_REDIRECT_URIS = 20;

const FORBIDDEN_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "blob:",
  "about:",
  "ftp:",
  "ws:",
  "wss:",
]);
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function checkRedirectUri(value: string, environment: TEnvironment): string | undefined {
  if (value.length === 0) return "must not be empty";
  if (value.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`;
  if (/\s/.test(value)) return "must not contain whitespace";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URI (for example https://example.com/callback)";
  }
  if (value.includes("#")) return "must not contain a fragment (#…)";
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `the ${url.protocol.slice(0, -1)} scheme is not allowed`;
  if (url.username || url.password) return "must not contain user credentials";
  if (url.protocol === "http:") {
    if (environment === "production" && !LOOPBACK.has(url.hostname)) {
      return "must use https in production (http is allowed only for localhost)";
    }
    return undefined;
  }
  if (url.protocol === "https:") return url.hostname ? undefined : "must name a host";
  // private-use URI scheme for native apps (RFC 8252 §7.1): reverse domain name with a dot
  if (!/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)) {
    return "must use https, http (localhost) or a reverse-domain private-use scheme such as com.example.app:";
  }
  return undefined;
}
