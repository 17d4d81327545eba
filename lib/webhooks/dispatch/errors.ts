/**
 * What a tenant is told about a webhook request that got no answer: a fixed text per error code,
 * never the error's own message (Node's messages name the address a host resolved to, e.g.
 * "connect ECONNREFUSED 10.0.0.5:443"). The server log keeps the detail.
 * Rules:
 * - a refused IP literal is "destination not allowed"; a host name that did not resolve or
 *   resolved to a forbidden address is one message for both, so that a tenant cannot probe which
 *   internal names exist;
 * - texts are clipped to 500 characters.
 */
import { logger } from "../../log";
import { ForbiddenAddressError } from "../ssrf";

const MAX_ERROR_LENGTH = 500;

/** `text` cut to `max` characters, with an ellipsis when cut. */
export function clip(text: string, max = MAX_ERROR_LENGTH): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Shown when the URL's host is an IP literal in a forbidden range. */
export const DESTINATION_NOT_ALLOWED =
  "destination not allowed: private, loopback, link-local and reserved addresses are refused";
/**
 * Shown when a host name did not resolve, or resolved to a forbidden address: one message for
 * both, so that a tenant cannot probe which internal names exist.
 */
export const HOST_NOT_ALLOWED =
  "host not found or not allowed: the host name must resolve to public addresses only";

const CONNECTION_ERRORS: Record<string, string> = {
  ENOTFOUND: HOST_NOT_ALLOWED,
  ENODATA: HOST_NOT_ALLOWED,
  EAI_NONAME: HOST_NOT_ALLOWED,
  EAI_AGAIN: "host name lookup failed temporarily",
  EAI_FAIL: "host name lookup failed temporarily",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection closed by the receiver before it answered",
  EPIPE: "connection closed by the receiver before it answered",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "host unreachable",
  EHOSTDOWN: "host unreachable",
  ENETDOWN: "host unreachable",
  CERT_HAS_EXPIRED: "TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS certificate does not match the host name",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS certificate could not be verified",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS certificate could not be verified",
};

/** The tenant's text for a request to `target` that failed with `err`; the detail is logged. */
export function tenantConnectionError(err: unknown, target: URL): string {
  const first = err instanceof AggregateError && err.errors.length > 0 ? (err.errors[0] as unknown) : err;
  const code = (first as NodeJS.ErrnoException | undefined)?.code;
  logger.warn(
    {
      host: target.host,
      code,
      err: first instanceof Error ? first.message : String(first),
      ...(first instanceof ForbiddenAddressError ? { address: first.address } : {}),
    },
    "webhook attempt got no answer",
  );
  if (first instanceof ForbiddenAddressError)
    return first.hostname ? HOST_NOT_ALLOWED : DESTINATION_NOT_ALLOWED;
  if (code && code in CONNECTION_ERRORS) return CONNECTION_ERRORS[code]!;
  if (code && /^(ERR_TLS_|ERR_SSL_|CERT_)/.test(code)) return `TLS handshake failed (${code})`;
  if (code && /^[A-Z0-9_]{1,40}$/.test(code)) return `connection failed (${code})`;
  return "connection failed";
}
