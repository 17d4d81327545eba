/**
 * The OP's public documents as served from memory: their headers and ETags, the JWKS of two
 * instances after a key change committed on one of them, and the discovery issuer of a custom
 * domain as the domain becomes active and is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidationListener, processListener, type TInvalidation } from "@/lib/cache/listener";
import { publishInvalidation } from "@/lib/cache/publish";
import { CACHE_TOPICS } from "@/lib/cache/topics";
import { encryptSecret } from "@/lib/crypto/encryption";
import { kysely } from "@/lib/db/client";
import { randomToken } from "@/lib/ids";
import { publishRecords, setupTestDns, uniqueDomain } from "@/lib/testing/custom-domains";
import { waitFor } from "@/lib/testing/jobs";
import { bearer, call } from "@/lib/testing/router";
import { makeVerifyingApp } from "@/lib/testing/verifications";
import { ensureSigningKeys, generateSigningKeyMaterial, rotateSigningKeys } from "../keys";
import { DISCOVERY_CACHE_CONTROL, JWKS_CACHE_CONTROL } from "./discovery";
import { JwksCache, type TDocument } from "./documents";
import { inTransaction } from "../../db/kysely";

const dns = setupTestDns();
const DISCOVERY = "/oidc/sandbox/.well-known/openid-configuration";
const OWN_ISSUER = "http://localhost:3000/oidc/sandbox";

let other: InvalidationListener;
const planted: string[] = [];

async function ready(listener: InvalidationListener): Promise<void> {
  listener.start();
  await waitFor(async () => listener.ready);
}

/** Waits until `listener` has heard a committed marker: everything committed before it has arrived. */
async function flush(listener: InvalidationListener): Promise<void> {
  const marker = `marker-${randomToken(12)}`;
  const arrived = new Promise<void>((resolve) => {
    const stop = listener.watch((event, change?: TInvalidation) => {
      if (event === "notification" && change?.key === marker) {
        stop();
        resolve();
      }
    });
  });
  await publishInvalidation(kysely(), CACHE_TOPICS.signingKeys, marker);
  await arrived;
}

/** A retired production key, still published until `expiresAt`, written without telling anyone. */
async function plantRetiredKey(expiresAt: Date): Promise<string> {
  const material = await generateSigningKeyMaterial("ES256");
  await kysely()
    .insertInto("signingKeys")
    .values({
      id: material.kid,
      environment: "production",
      alg: "ES256",
      publicJwk: JSON.stringify(material.publicJwk),
      privateJwkEncrypted: encryptSecret(JSON.stringify(material.privateJwk)),
      createdAt: new Date(expiresAt.getTime() - 3600_000),
      retiredAt: new Date(),
      expiresAt,
    })
    .execute();
  planted.push(material.kid);
  return material.kid;
}

const kids = (document: TDocument) =>
  (JSON.parse(document.body) as { keys: { kid: string }[] }).keys.map((k) => k.kid);

beforeAll(async () => {
  other = new InvalidationListener({ connectionString: process.env.DATABASE_URL! });
  await Promise.all([ready(processListener()!), ready(other)]);
});

afterAll(async () => {
  await inTransaction(kysely(), async (tx) => {
    if (planted.length > 0) await tx.deleteFrom("signingKeys").where("id", "in", planted).execute();
    await publishInvalidation(tx, CACHE_TOPICS.signingKeys, "production");
  });
  await other?.close();
});

describe("discovery and JWKS responses", () => {
  it("keep their headers, add an ETag and answer 304 to a request that names it", async () => {
    for (const [path, cacheControl] of [
      [DISCOVERY, DISCOVERY_CACHE_CONTROL],
      ["/oidc/sandbox/jwks", JWKS_CACHE_CONTROL],
    ] as const) {
      const first = await call("GET", path);
      expect(first.status).toBe(200);
      expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(first.headers.get("cache-control")).toBe(cacheControl);
      expect(first.headers.get("access-control-allow-origin")).toBe("*");
      const etag = first.headers.get("etag");
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      // served again from memory: the same bytes, the same tag
      const again = await call("GET", path);
      expect(again.text).toBe(first.text);
      expect(again.headers.get("etag")).toBe(etag);

      for (const ifNoneMatch of [etag!, `W/${etag}`, `"other", ${etag}`, "*"]) {
        const revalidated = await call("GET", path, { headers: { "if-none-match": ifNoneMatch } });
        expect(revalidated.status).toBe(304);
        expect(revalidated.text).toBe("");
        expect(revalidated.headers.get("etag")).toBe(etag);
        expect(revalidated.headers.get("cache-control")).toBe(cacheControl);
        expect(revalidated.headers.get("access-control-allow-origin")).toBe("*");
      }
      const changed = await call("GET", path, { headers: { "if-none-match": '"something-else"' } });
      expect(changed.status).toBe(200);
      expect(changed.text).toBe(first.text);
    }
    expect((await call("GET", DISCOVERY)).body.issuer).toBe(OWN_ISSUER);
  });
});

describe("JWKS across instances", () => {
  it("a key change committed on one instance reaches the other instance's cached JWKS", async () => {
    // two instances: this process's listener and another one, each with its own JWKS cache
    const [here, there] = [new JwksCache(processListener()!), new JwksCache(other)];
    await ensureSigningKeys(kysely(), "production");
    const now = Date.now();
    const leaving = await plantRetiredKey(new Date(now + 30 * 60_000));
    // notifications of anything committed so far (another file's key creation) have arrived
    await flush(other);

    const before = await there.document("production");
    expect(kids(before)).toContain(leaving);
    expect(kids(await here.document("production"))).toContain(leaving);
    expect(there.cached("production")).toBe(before);

    // a key written without an invalidation stays unseen: the cached JWKS is served
    const silent = await plantRetiredKey(new Date(now + 40 * 60_000));
    expect((await there.document("production")).body).toBe(before.body);

    // rotation after the first key's publication ended deletes it, in a committed transaction
    const heard = new Promise<void>((resolve) => {
      const stop = other.watch((event, change?: TInvalidation) => {
        if (
          event === "notification" &&
          change?.topic === CACHE_TOPICS.signingKeys &&
          change.key === "production"
        ) {
          stop();
          resolve();
        }
      });
    });
    const result = await rotateSigningKeys(kysely(), "production", new Date(now + 30 * 60_000 + 1000));
    expect(result.removed).toContain(leaving);
    // the writer's own instance at once, the other one when the commit reaches it
    expect(kids(await here.document("production"))).not.toContain(leaving);
    await heard;
    await waitFor(async () => !kids(await there.document("production")).includes(leaving));
    const after = await there.document("production");
    expect(kids(after)).toContain(silent);
    expect(after.etag).not.toBe(before.etag);
  });
});

describe("discovery on a custom OIDC domain", () => {
  it("names the domain as issuer once it is active, and no longer once it is deleted", async () => {
    const t = await makeVerifyingApp(["passport"]);
    const names = uniqueDomain();
    const url = `/api/sandbox/v1/apps/${t.app.clientId}/custom-domain`;
    const key = bearer(t.ws.keys.sandbox);
    const discovery = async () =>
      (await call("GET", DISCOVERY, { headers: { host: names.oidc } })).body.issuer as string;

    const put = await call("PUT", url, {
      headers: key,
      body: { webDomain: names.web, oidcDomain: names.oidc },
    });
    expect(put.status).toBe(200);
    // not active yet: the service's own issuer (and that answer is cached)
    expect(await discovery()).toBe(OWN_ISSUER);
    expect(await discovery()).toBe(OWN_ISSUER);

    publishRecords(dns(), put.body.dnsRecords);
    const verified = await call("POST", `${url}/verify`, { headers: key });
    expect(verified.body.status).toBe("active");
    expect(await discovery()).toBe(`https://${names.oidc}`);
    // the activation's own notification has arrived (it dropped the cache once more): from here
    // on, only the deletion can make the cached answer change
    await flush(processListener()!);
    expect(await discovery()).toBe(`https://${names.oidc}`);
    // the JWKS address follows the issuer
    expect((await call("GET", DISCOVERY, { headers: { host: names.oidc } })).body.jwks_uri).toBe(
      `https://${names.oidc}/jwks`,
    );

    expect((await call("DELETE", url, { headers: key })).status).toBe(200);
    expect(await discovery()).toBe(OWN_ISSUER);
  });
});
