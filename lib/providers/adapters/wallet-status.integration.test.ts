/**
 * Token Status List checks of wallet presentations against a real HTTP server on 127.0.0.1,
 * through the SSRF guard (loopback allowed only with WEBHOOK_ALLOW_PRIVATE_NETWORKS). The
 * credentials and status lists come from the upstream wallet double (@sd-jwt/*).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TWalletTrustConfig } from "./wallet";
import { verifyWalletPresentation } from "./wallet";
import {
  issueDoubleCredential,
  makeDoubleHolder,
  makeDoubleIssuer,
  presentDoubleCredential,
  signDoubleStatusList,
  type TDoubleIssuer,
} from "../../testing/wallet-double";
import { clearStatusListCache } from "./wallet-status";
import { putTestConnection } from "../../testing/connections";
import { makeVerifyingApp } from "../../testing/verifications";
import { isolateTestDatabase } from "../../testing/webhooks";
import {
  beginWalletPresentation,
  completeWalletPresentation,
  walletAudience,
} from "../../verifications/wallet";

// a database of its own: the session test below changes the shared production eudi_wallet connection
isolateTestDatabase();

const AUD = "origin:https://idv.example";
const NONCE = "n-status-1";
const PID = { given_name: "Erika", family_name: "Mustermann" };

/** path → [status, body]; every request is counted */
const routes = new Map<string, { status: number; body: string; type?: string }>();
const hits = new Map<string, number>();
let server: http.Server;
let base: string;
let previousAllow: string | undefined;

beforeAll(async () => {
  previousAllow = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
  server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end("not found");
      return;
    }
    res
      .writeHead(route.status, { "content-type": route.type ?? "application/statuslist+jwt" })
      .end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (previousAllow === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  else process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = previousAllow;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  routes.clear();
  hits.clear();
  clearStatusListCache();
});

function trust(issuer: TDoubleIssuer): TWalletTrustConfig {
  return { issuers: { [issuer.iss]: issuer.jwks }, vct: ["urn:eudi:pid:1"], loa: 3 } as TWalletTrustConfig;
}

/** statuses: 0 valid, 1 revoked, 2 suspended, 3 (application-specific) */
const STATUSES = [0, 1, 2, 3];

async function presentWithStatus(issuer: TDoubleIssuer, idx: number, uri: string) {
  const holder = await makeDoubleHolder();
  const credential = await issueDoubleCredential(
    issuer,
    holder,
    PID,
    { _sd: ["given_name", "family_name"] },
    { status: { idx, uri } },
  );
  return presentDoubleCredential(credential, holder, { nonce: NONCE, aud: AUD });
}

async function verify(issuer: TDoubleIssuer, vp: string) {
  return verifyWalletPresentation(trust(issuer), { nonce: NONCE, audience: AUD }, vp);
}

describe("Token Status List", () => {
  it("accepts a credential whose status is valid, and caches the list", async () => {
    const issuer = await makeDoubleIssuer();
    const uri = `${base}/lists/1`;
    routes.set("/lists/1", { status: 200, body: await signDoubleStatusList(issuer, uri, STATUSES) });
    const first = await verify(issuer, await presentWithStatus(issuer, 0, uri));
    expect(first.kind).toBe("success");
    expect(first.kind === "success" && first.identity.evidence.credential_status).toBe("valid");
    const second = await verify(issuer, await presentWithStatus(issuer, 0, uri));
    expect(second.kind).toBe("success");
    expect(hits.get("/lists/1")).toBe(1);
  });

  it.each([
    [1, "credential_revoked", /revoked/],
    [2, "credential_suspended", /suspended/],
    [3, "invalid_presentation", /status is not valid/],
    [99, "invalid_presentation", /no valid entry/],
  ] as const)("fails a credential at status index %s with %s", async (idx, reason, message) => {
    const issuer = await makeDoubleIssuer();
    const uri = `${base}/lists/2`;
    routes.set("/lists/2", { status: 200, body: await signDoubleStatusList(issuer, uri, STATUSES) });
    const outcome = await verify(issuer, await presentWithStatus(issuer, idx, uri));
    expect(outcome).toMatchObject({ kind: "failure", reason });
    expect(outcome.kind === "failure" && outcome.message).toMatch(message);
  });

  it("fails closed on a status list signed by another key, for another uri, of another typ, or expired", async () => {
    const issuer = await makeDoubleIssuer();
    const impostor = await makeDoubleIssuer(issuer.iss);
    const uri = `${base}/lists/3`;
    const tokens = [
      await signDoubleStatusList(impostor, uri, STATUSES),
      await signDoubleStatusList(issuer, uri, STATUSES, { sub: `${base}/lists/other` }),
      await signDoubleStatusList(issuer, uri, STATUSES, { typ: "JWT" }),
      await signDoubleStatusList(issuer, uri, STATUSES, { expiresIn: -3600 }),
    ];
    for (const body of tokens) {
      clearStatusListCache();
      routes.set("/lists/3", { status: 200, body });
      const outcome = await verify(issuer, await presentWithStatus(issuer, 0, uri));
      expect(outcome).toMatchObject({ kind: "failure", reason: "invalid_presentation" });
      expect(outcome.kind === "failure" && outcome.message).toMatch(
        /status list does not verify.*fail closed/,
      );
    }
  });

  it("fails closed when the status list cannot be fetched", async () => {
    const issuer = await makeDoubleIssuer();
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    for (const uri of [`http://127.0.0.1:${port}/gone`, `${base}/lists/missing`]) {
      const outcome = await verify(issuer, await presentWithStatus(issuer, 0, uri));
      expect(outcome).toMatchObject({ kind: "failure", reason: "invalid_presentation" });
      expect(outcome.kind === "failure" && outcome.message).toMatch(/could not be fetched.*fail closed/);
    }
  });

  it("goes through the SSRF guard: loopback is refused unless private networks are allowed", async () => {
    const issuer = await makeDoubleIssuer();
    const uri = `${base}/lists/4`;
    routes.set("/lists/4", { status: 200, body: await signDoubleStatusList(issuer, uri, STATUSES) });
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "0";
    try {
      const outcome = await verify(issuer, await presentWithStatus(issuer, 0, uri));
      expect(outcome).toMatchObject({ kind: "failure", reason: "invalid_presentation" });
      expect(hits.get("/lists/4")).toBeUndefined();
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    }
  });

  it("refetches once the list's ttl has passed", async () => {
    const issuer = await makeDoubleIssuer();
    const uri = `${base}/lists/5`;
    routes.set("/lists/5", {
      status: 200,
      body: await signDoubleStatusList(issuer, uri, STATUSES, { ttl: 1 }),
    });
    expect((await verify(issuer, await presentWithStatus(issuer, 0, uri))).kind).toBe("success");
    // the list is updated: index 0 is now revoked
    routes.set("/lists/5", {
      status: 200,
      body: await signDoubleStatusList(issuer, uri, [1, 1, 2, 3], { ttl: 1 }),
    });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await verify(issuer, await presentWithStatus(issuer, 0, uri))).toMatchObject({
      reason: "credential_revoked",
    });
    expect(hits.get("/lists/5")).toBe(2);
  });
});

describe("the session's failure reason", () => {
  it("is credential_revoked, credential_suspended, credential_expired or credential_not_yet_valid as the credential is", async () => {
    const issuer = await makeDoubleIssuer("https://pid-status.example");
    const uri = `${base}/lists/session`;
    routes.set("/lists/session", { status: 200, body: await signDoubleStatusList(issuer, uri, STATUSES) });
    await putTestConnection("production", "eudi_wallet", {
      adapter: "wallet",
      settings: { issuers: { [issuer.iss]: issuer.jwks }, vct: ["urn:eudi:pid:1"] },
    });
    const t = await makeVerifyingApp(["eudi_wallet"], "production");
    const cases = [
      [{ status: { idx: 1, uri } }, "credential_revoked"],
      [{ status: { idx: 2, uri } }, "credential_suspended"],
      [{ expiresIn: -3600 }, "credential_expired"],
      [{ notBefore: 3600 }, "credential_not_yet_valid"],
      [{ status: { idx: 0, uri } }, null],
    ] as const;
    for (const [options, reason] of cases) {
      const id = (await t.start({ providerId: "eudi_wallet", flowType: "dc" })).body.verificationId as string;
      const request = await beginWalletPresentation(id);
      const holder = await makeDoubleHolder();
      const credential = await issueDoubleCredential(issuer, holder, PID, { _sd: ["given_name"] }, options);
      const vp = await presentDoubleCredential(credential, holder, {
        nonce: request.data.nonce,
        aud: walletAudience(),
      });
      const v = await completeWalletPresentation(id, { vp_token: { pid: [vp] } });
      expect(v).toMatchObject(reason ? { status: "failed", statusReason: reason } : { status: "completed" });
      // the integrator reads it as `reason` (GET /verifications/{id})
      if (reason) expect((await t.status(id)).body).toMatchObject({ status: "failed", reason });
    }
  });
});
