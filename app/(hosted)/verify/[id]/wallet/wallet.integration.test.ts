// The production dc flow: GET /verify/{id}/wallet (the OpenID4VP request) and POST (a real
// SD-JWT VC presentation built with jose), against the real database.
import { beforeAll, describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/crypto/encryption";
import { kysely } from "@/lib/db/client";
import { putTestConnection } from "@/lib/testing/connections";
import { call } from "@/lib/testing/router";
import { eventTypes, makeVerifyingApp } from "@/lib/testing/verifications";
import {
  issueTestCredential,
  makeDisclosure,
  makeTestHolder,
  makeTestIssuer,
  presentTestCredential,
  type TTestHolder,
  type TTestIssuer,
} from "@/lib/testing/wallet";
import { walletAudience } from "@/lib/verifications/wallet";

const PID = {
  given_name: "Erika",
  family_name: "Mustermann",
  birthdate: "1964-08-12",
  nationalities: ["DE"],
};
const json = { "content-type": "application/json", "sec-fetch-site": "same-origin" };

let issuer: TTestIssuer;
let holder: TTestHolder;

beforeAll(async () => {
  issuer = await makeTestIssuer("https://pid-provider.example");
  holder = await makeTestHolder();
  await connectWallet(true);
});

/** The wallet connection of production (lib/connections), trusting the test issuer. */
function connectWallet(enabled: boolean) {
  return putTestConnection("production", "eudi_wallet", {
    adapter: "wallet",
    enabled,
    settings: { issuers: { [issuer.iss]: issuer.jwks }, vct: ["urn:eudi:pid:1"], loa: 3 },
  });
}

async function dcSession(env: "sandbox" | "production" = "production", flowType = "dc") {
  const t = await makeVerifyingApp(["eudi_wallet"], env);
  const created = await t.start({ providerId: "eudi_wallet", flowType });
  expect(created.status).toBe(201);
  return { t, id: created.body.verificationId as string };
}

async function walletRequest(id: string) {
  const res = await call("GET", `/verify/${id}/wallet`);
  expect(res.status).toBe(200);
  return res.body as { protocol: string; data: { nonce: string; dcql_query: { credentials: unknown[] } } };
}

async function present(
  nonce: string,
  options: { tamper?: boolean; noKb?: boolean; signer?: TTestIssuer } = {},
) {
  const credential = await issueTestCredential(options.signer ?? issuer, PID, { holder });
  if (options.tamper) credential.disclosures[2] = makeDisclosure("birthdate", "2012-01-01");
  return presentTestCredential(credential, holder, {
    nonce,
    aud: walletAudience(),
    withoutKeyBinding: options.noKb ?? false,
  });
}

const row = (id: string) =>
  kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("GET /verify/{id}/wallet", () => {
  it("is the unsigned OpenID4VP request; the session is authenticating with its nonce sealed", async () => {
    const { t, id } = await dcSession();
    const request = await walletRequest(id);
    expect(request).toMatchObject({
      protocol: "openid4vp-v1-unsigned",
      data: {
        response_type: "vp_token",
        response_mode: "dc_api",
        dcql_query: {
          credentials: [{ id: "pid", format: "dc+sd-jwt", meta: { vct_values: ["urn:eudi:pid:1"] } }],
        },
      },
    });
    expect(request.data).not.toHaveProperty("client_id");
    expect(request.data.nonce.length).toBeGreaterThanOrEqual(32);
    expect((await t.status(id)).body.status).toBe("authenticating");
    const sealed = JSON.parse(decryptSecret((await row(id)).upstreamEncrypted!)) as Record<string, string>;
    expect(sealed).toEqual({ kind: "wallet", nonce: request.data.nonce, expectedOrigin: walletAudience() });
    expect(walletAudience()).toMatch(/^origin:https?:\/\/[^/]+$/);
  });

  it("is 404 for sandbox sessions, other flows and unknown ids, and changes nothing", async () => {
    const sandbox = await dcSession("sandbox");
    const sandboxQr = await dcSession("sandbox", "qr");
    // in production the wallet connection answers the dc flow only: a qr session is never created
    const t = await makeVerifyingApp(["eudi_wallet"], "production");
    const qr = await t.start({ providerId: "eudi_wallet", flowType: "qr" });
    expect(qr.status).toBe(400);
    expect(qr.body.error.details[0].path).toBe("flowType");
    for (const id of [sandbox.id, sandboxQr.id]) {
      const res = await call("GET", `/verify/${id}/wallet`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("RESOURCE_NOT_FOUND");
      const v = await row(id);
      expect(v.status).toBe("awaiting_user_action");
      expect(v.upstreamEncrypted).toBeNull();
    }
    expect((await call("GET", "/verify/ver_nothing/wallet")).status).toBe(404);
    expect((await call("GET", "/verify/not-an-id/wallet")).status).toBe(404);
  });

  it("is 404 when the provider's wallet connection is disabled (which fails the open session)", async () => {
    const { id } = await dcSession();
    await connectWallet(false);
    try {
      expect((await call("GET", `/verify/${id}/wallet`)).status).toBe(404);
    } finally {
      await connectWallet(true);
    }
    expect(await row(id)).toMatchObject({ status: "failed", statusReason: "provider_unavailable" });
  });

  it("refuses a cross-site request", async () => {
    const { id } = await dcSession();
    const res = await call("GET", `/verify/${id}/wallet`, { headers: { "sec-fetch-site": "cross-site" } });
    expect(res.status).toBe(403);
    expect((await row(id)).status).toBe("awaiting_user_action");
  });
});

describe("POST /verify/{id}/wallet", () => {
  it("completes the session with the disclosed claims (DC API data shape)", async () => {
    const { t, id } = await dcSession();
    const { data } = await walletRequest(id);
    const vp = await present(data.nonce);
    const res = await call("POST", `/verify/${id}/wallet`, {
      headers: json,
      body: { data: { vp_token: { pid: [vp] } } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "completed" });
    const v = await row(id);
    expect(v.upstreamEncrypted).toBeNull();
    expect(v.loa).toBe(3);

    const info = await t.userinfo(id);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ provider_id: "eudi_wallet", service_loa: 3, acr: "urn:idv:loa:3" });
    // the default workflow asks for these; the PID's nationalities becomes nationality
    expect(info.body.user).toEqual({
      given_name: "Erika",
      family_name: "Mustermann",
      birthdate: "1964-08-12",
      nationality: "DE",
    });
    const evidence = await t.evidence(id);
    expect(evidence.status).toBe(200);
    expect(JSON.stringify(evidence.body)).toContain(issuer.iss);
    expect(await eventTypes(id)).toEqual([
      "verification.created",
      "verification.requested",
      "verification.workflow.started",
      "verification.user.authentication_started",
      "verification.user.authentication_succeeded",
      "verification.completed",
    ]);
    // ended: a second answer is refused
    const again = await call("POST", `/verify/${id}/wallet`, {
      headers: json,
      body: { vp_token: { pid: [vp] } },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("VERIFICATION_TERMINAL");
  });

  it.each([
    ["a tampered disclosure", { tamper: true }, undefined],
    ["a wrong nonce", {}, "not-the-session-nonce"],
    ["an untrusted issuer", { signer: "stranger" }, undefined],
    ["no Key Binding JWT", { noKb: true }, undefined],
  ] as const)("fails the session on %s with invalid_presentation", async (_name, options, nonce) => {
    const { t, id } = await dcSession();
    const { data } = await walletRequest(id);
    const signer = "signer" in options ? await makeTestIssuer("https://stranger.example") : undefined;
    const vp = await present(nonce ?? data.nonce, {
      tamper: "tamper" in options,
      noKb: "noKb" in options,
      ...(signer ? { signer } : {}),
    });
    const res = await call("POST", `/verify/${id}/wallet`, {
      headers: json,
      body: { vp_token: { pid: [vp] } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "failed", reason: "invalid_presentation" });
    const v = await row(id);
    expect(v.status).toBe("failed");
    expect(v.statusReason).toBe("invalid_presentation");
    expect(v.resultEncrypted).toBeNull();
    expect(v.upstreamEncrypted).toBeNull();
    expect((await t.userinfo(id)).status).toBe(409);
    expect((await eventTypes(id)).slice(-2)).toEqual([
      "verification.user.authentication_failed",
      "verification.failed",
    ]);
  });

  it("refuses a malformed body naming the field, and changes nothing", async () => {
    const { id } = await dcSession();
    await walletRequest(id);
    const before = await row(id);
    const cases = [
      [{ vp_token: { other: ["x"] } }, 400, "VALIDATION_ERROR", "vp_token.pid"],
      [{ data: { vp_token: { pid: [] } } }, 400, "VALIDATION_ERROR", "data.vp_token.pid"],
      [{}, 400, "VALIDATION_ERROR", "vp_token.pid"],
    ] as const;
    for (const [body, status, code, field] of cases) {
      const res = await call("POST", `/verify/${id}/wallet`, { headers: json, body });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.details[0].path).toBe(field);
    }
    const notJson = await call("POST", `/verify/${id}/wallet`, { headers: json, rawBody: "{" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe("INVALID_JSON");
    const form = await call("POST", `/verify/${id}/wallet`, {
      headers: { "content-type": "text/plain", "sec-fetch-site": "same-origin" },
      rawBody: "x",
    });
    expect(form.status).toBe(415);
    const crossSite = await call("POST", `/verify/${id}/wallet`, {
      headers: { ...json, "sec-fetch-site": "cross-site" },
      body: { vp_token: { pid: ["x"] } },
    });
    expect(crossSite.status).toBe(403);
    const after = await row(id);
    expect(after.status).toBe("authenticating");
    expect(after.upstreamEncrypted).toBe(before.upstreamEncrypted);
  });

  it("is 409 before the request was fetched, and only the latest request's nonce counts", async () => {
    const { id } = await dcSession();
    const early = await call("POST", `/verify/${id}/wallet`, {
      headers: json,
      body: { vp_token: { pid: [await present("x")] } },
    });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("VERIFICATION_STATE_CONFLICT");
    expect((await row(id)).status).toBe("awaiting_user_action");

    const first = await walletRequest(id);
    const second = await walletRequest(id);
    expect(second.data.nonce).not.toBe(first.data.nonce);
    const stale = await call("POST", `/verify/${id}/wallet`, {
      headers: json,
      body: { vp_token: { pid: [await present(first.data.nonce)] } },
    });
    expect(stale.body).toEqual({ status: "failed", reason: "invalid_presentation" });
  });

  it("is 404 for a sandbox session", async () => {
    const { id } = await dcSession("sandbox");
    const res = await call("POST", `/verify/${id}/wallet`, {
      headers: json,
      body: { vp_token: { pid: ["x"] } },
    });
    expect(res.status).toBe(404);
    expect((await row(id)).status).toBe("awaiting_user_action");
  });
});
