/**
 * Where an authorization request's parameters come from at /auth and /select: the query or form
 * itself, a signed request object (`request`, JAR by value: ./request-object.ts) or a pushed
 * request (`request_uri` of /par: RFC 9126). Runs once the client is known, before redirect_uri
 * is checked (the redirect_uri to check is the one of the request's real parameters).
 * Rules:
 * - `request` and `request_uri` together: invalid_request on the error page;
 * - a `request_uri` of our PAR endpoint (urn:ietf:params:oauth:request_uri:…) names a pushed
 *   request that must exist, belong to this client_id and environment, be unexpired and unused;
 *   otherwise invalid_request_uri on the error page (the redirect_uri of a request we cannot read
 *   cannot be trusted). Its stored parameters ARE the request: every other outer parameter is
 *   ignored (RFC 9126 §4), except our `provider` extension when the pushed request had none — that
 *   is the end-user's choice on the picker, which for a pushed request carries only client_id,
 *   request_uri and the provider chosen;
 * - any other request_uri (by reference, https://…) is left to check-unsupported.ts
 *   (request_uri_not_supported);
 * - a `request` object is verified (./request-object.ts) and its parameters are the request, with
 *   the outer client_id and, as above, the outer `provider` when it has none; a refusal
 *   (invalid_request_object) is redirected to the outer redirect_uri when that one is registered
 *   for the client (and sent once), else shown on the error page;
 * - a pushed request is used once: /auth marks it used (a conditional update, in the transaction
 *   that creates the sign-in) just before the session is created; of two uses one wins, the other
 *   sees invalid_request_uri.
 */
import { sha256Hex } from "../../crypto/hash";
import type { Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";
import { clientPolicy } from "../profile";
import { readPushedRequest, markPushedRequestUsed } from "../store/pushed";
import { AuthorizationError } from "./authorization-error";
import type { TClientApp } from "./check-client";
import { single, type TAuthorizationParams } from "./params";
import { verifyRequestObject } from "./request-object";

/** The prefix of the request_uri values /par hands out. */
export const PAR_REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:";
/** The random part of a request_uri: 256 bits, base64url. */
export const PAR_REQUEST_URI_RANDOM = /^[A-Za-z0-9_-]{43}$/;

export interface TRequestSource {
  via: "plain" | "jar" | "par";
  params: TAuthorizationParams;
  /** par: the pushed request's id (to be used once) and its DPoP key binding */
  pushedId?: string;
  dpopJkt?: string;
  /** the picker's query (par: client_id and request_uri only); undefined: the request's own */
  pickerSearch?: Record<string, string>;
}

/** A refused request object whose outer redirect_uri is registered: redirected with the outer state. */
export class RedirectedRequestError extends AuthorizationError {
  readonly target: { redirectUri: string; state?: string; issuer: string };

  constructor(error: AuthorizationError, target: { redirectUri: string; state?: string; issuer: string }) {
    super(error.code, error.message, true);
    this.target = target;
  }
}

/** The id a request_uri of ours is stored under, or undefined for another form. */
export function pushedRequestId(requestUri: string): string | undefined {
  if (!requestUri.startsWith(PAR_REQUEST_URI_PREFIX)) return undefined;
  const random = requestUri.slice(PAR_REQUEST_URI_PREFIX.length);
  return PAR_REQUEST_URI_RANDOM.test(random) ? sha256Hex(random) : "";
}

/** `values` with the outer `provider` added when they have none (the picker's choice). */
function withPickedProvider(
  values: Record<string, string>,
  outer: TAuthorizationParams,
): Record<string, string> {
  const provider = outer.repeated.has("provider") ? undefined : outer.values.provider;
  return values.provider === undefined && provider !== undefined ? { ...values, provider } : values;
}

export async function requestSource(
  db: Db,
  input: {
    environment: TEnvironment;
    app: TClientApp;
    issuer: string;
    params: TAuthorizationParams;
    now?: Date;
  },
): Promise<TRequestSource> {
  const { app, params } = input;
  const requestUri = params.values.request_uri;
  const request = params.values.request;
  if (requestUri !== undefined && request !== undefined) {
    throw new AuthorizationError("invalid_request", "request and request_uri must not both be sent", false);
  }
  if (requestUri !== undefined) {
    const id = pushedRequestId(single(params, "request_uri", false)!);
    if (id === undefined) return { via: "plain", params };
    const now = input.now ?? new Date();
    const pushed = id ? await readPushedRequest(db, id) : undefined;
    const unusable = !pushed
      ? "is unknown"
      : pushed.appId !== app.id || pushed.environment !== input.environment
        ? "was not issued to this client"
        : pushed.usedAt !== null
          ? "has already been used"
          : pushed.expiresAt <= now
            ? "has expired"
            : undefined;
    if (unusable) throw new AuthorizationError("invalid_request_uri", `request_uri: ${unusable}`, false);
    const stored: Record<string, string> = {};
    for (const [name, value] of Object.entries(pushed!.params))
      if (typeof value === "string") stored[name] = value;
    const picked = withPickedProvider(stored, params);
    return {
      via: "par",
      params: { values: { ...picked, client_id: app.id }, repeated: new Set() },
      pushedId: id,
      ...(pushed!.dpopJkt ? { dpopJkt: pushed!.dpopJkt } : {}),
      pickerSearch: { client_id: app.id, request_uri: requestUri },
    };
  }
  if (request !== undefined) {
    try {
      const values = await verifyRequestObject(single(params, "request")!, {
        client: app,
        algs: clientPolicy(app).clientJwtAlgs,
        issuer: input.issuer,
        clientId: app.id,
        ...(input.now ? { now: input.now } : {}),
      });
      const picked = withPickedProvider(values, params);
      return { via: "jar", params: { values: { ...picked, client_id: app.id }, repeated: new Set() } };
    } catch (err) {
      if (!(err instanceof AuthorizationError)) throw err;
      // the outer redirect_uri is trusted when the client registered it
      const redirectUri = params.repeated.has("redirect_uri") ? undefined : params.values.redirect_uri;
      if (redirectUri === undefined || !app.redirectUris.includes(redirectUri))
        throw new AuthorizationError(
          err.code,
          `${err.message} (shown here: the redirect_uri parameter is missing or not registered)`,
          false,
        );
      const state = params.repeated.has("state") ? undefined : params.values.state;
      throw new RedirectedRequestError(err, {
        redirectUri,
        issuer: input.issuer,
        ...(state ? { state } : {}),
      });
    }
  }
  return { via: "plain", params };
}

/** Uses the pushed request of `source` once (see the rules); nothing for other sources. */
export async function consumePushedSource(db: Db, source: TRequestSource, now: Date): Promise<void> {
  if (source.pushedId === undefined) return;
  if (!(await markPushedRequestUsed(db, source.pushedId, now))) {
    throw new AuthorizationError(
      "invalid_request_uri",
      "request_uri: has already been used or has expired",
      false,
    );
  }
}

/** Rule (RFC 9449 §10): dpop_jkt is the base64url SHA-256 JWK thumbprint of the client's DPoP key. */
export function checkDpopJkt(params: TAuthorizationParams): string | undefined {
  const jkt = single(params, "dpop_jkt");
  if (jkt !== undefined && !PAR_REQUEST_URI_RANDOM.test(jkt)) {
    throw new AuthorizationError(
      "invalid_request",
      "dpop_jkt: must be a JWK SHA-256 thumbprint (43 base64url characters)",
    );
  }
  return jkt;
}
