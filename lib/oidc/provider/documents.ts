/**
 * The two public documents of the OpenID Provider, served from memory: the discovery document
 * and the JWKS, each kept as its serialised body with an ETag.
 * Rules:
 * - discovery depends on nothing but the issuer and the configuration: one body per issuer,
 *   made again when the configuration is read again; the issuer on a custom domain comes from
 *   cachedIssuer (issuer.ts), cached and invalidated across instances;
 * - the JWKS of an environment is read from the database once and kept in a derived cache
 *   (lib/cache): dropped on every instance when a key is created, retired or deleted
 *   (lib/oidc/keys.ts publishes that in the transaction of the change), and at the latest when
 *   its first retired key stops being published or after JWKS_CACHE_TTL_MS;
 * - headers as always (Content-Type, Cache-Control, Access-Control-Allow-Origin: *) plus a
 *   strong ETag of the body; a GET whose If-None-Match names it is answered 304 with the same
 *   headers and no body (RFC 9110 §13.1.2: weak comparison).
 */
import { createHash } from "node:crypto";
import { BufferedResponse } from "../../http/buffered-response";
import { DerivedCache } from "../../cache/derived-cache";
import type { InvalidationListener } from "../../cache/listener";
import { CACHE_TOPICS } from "../../cache/topics";
import { config, type TConfig } from "../../config";
import type { TEnvironment } from "../../environments";
import { servedJwks } from "../keys";
import { buildDiscovery, DISCOVERY_CACHE_CONTROL, JWKS_CACHE_CONTROL } from "./discovery";
import { cachedIssuer } from "./issuer";

/** A document ready to send. */
export interface TDocument {
  body: string;
  /** quoted strong entity tag */
  etag: string;
  cacheControl: string;
}

export function serialisedDocument(value: unknown, cacheControl: string): TDocument {
  const body = JSON.stringify(value);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  return { body, etag, cacheControl };
}

/** Whether an If-None-Match header names `etag` (weak comparison: a W/ prefix is ignored). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  for (const part of ifNoneMatch.split(",")) {
    const tag = part.trim();
    if (tag === "*" || tag === etag || (tag.startsWith("W/") && tag.slice(2) === etag)) return true;
  }
  return false;
}

export function documentResponse(request: Request, document: TDocument): Response {
  const cache = {
    "Cache-Control": document.cacheControl,
    "Access-Control-Allow-Origin": "*",
    ETag: document.etag,
  };
  // 304: the fields a cache updates its copy with, no representation metadata (RFC 9110 §15.4.5)
  if (matchesEtag(request.headers.get("if-none-match"), document.etag))
    return new Response(null, { status: 304, headers: cache });
  return new BufferedResponse(document.body, {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...cache },
  });
}

// ---------------------------------------------------------------------------------------------
// Discovery

const DISCOVERY_MAX_ISSUERS = 10_000;
let discoveryConfig: TConfig | undefined;
const discoveryDocuments = new Map<string, TDocument>();

export function discoveryDocument(issuer: string): TDocument {
  const settings = config();
  if (settings !== discoveryConfig) {
    discoveryDocuments.clear();
    discoveryConfig = settings;
  }
  let document = discoveryDocuments.get(issuer);
  if (!document) {
    document = serialisedDocument(buildDiscovery(issuer), DISCOVERY_CACHE_CONTROL);
    // issuers are the service's own and active custom domains: a bound that is never reached
    if (discoveryDocuments.size >= DISCOVERY_MAX_ISSUERS) discoveryDocuments.clear();
    discoveryDocuments.set(issuer, document);
  }
  return document;
}

export async function handleDiscovery(request: Request, environment: TEnvironment): Promise<Response> {
  return documentResponse(request, discoveryDocument(await cachedIssuer(environment, request)));
}

// ---------------------------------------------------------------------------------------------
// JWKS

export const JWKS_CACHE_TTL_MS = 60_000;

/** The JWKS of each environment as served; one per process (below), more in tests as other instances. */
export class JwksCache {
  private readonly documents: DerivedCache<TDocument>;

  constructor(listener?: InvalidationListener) {
    this.documents = new DerivedCache<TDocument>({
      topic: CACHE_TOPICS.signingKeys,
      ttlMs: JWKS_CACHE_TTL_MS,
      maxEntries: 2,
      ...(listener ? { listener } : {}),
    });
  }

  /** From the cache, else read now (a fresh deployment's keys are made first). */
  document(environment: TEnvironment): Promise<TDocument> {
    return this.documents.get(environment, async () => {
      const { jwks, changesAt } = await servedJwks(environment);
      return {
        value: serialisedDocument(jwks, JWKS_CACHE_CONTROL),
        ...(changesAt ? { expiresAt: changesAt.getTime() } : {}),
      };
    });
  }

  /** What is cached now (tests). */
  cached(environment: TEnvironment): TDocument | undefined {
    return this.documents.peek(environment);
  }
}

let processJwks: JwksCache | undefined;

export async function handleJwks(request: Request, environment: TEnvironment): Promise<Response> {
  processJwks ??= new JwksCache();
  return documentResponse(request, await processJwks.document(environment));
}
