/**
 * The former environment variables (IDV_UPSTREAM_OIDC, IDV_WALLET_TRUSTED_ISSUERS): imported once
 * at start-up into production connections that do not exist yet, with a warning; a bad value
 * stops the start-up before anything is imported.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../config";
import { checkConfiguration } from "../config/startup";
import { decryptSecret } from "../crypto/encryption";
import { kysely } from "../db/client";
import { putTestConnection } from "../testing/connections";
import { importEnvironmentConnections } from "./runtime";
import { connectionSettings } from "./runtime";
import { isolateTestDatabase } from "../testing/webhooks";

// connections are environment-wide and other files connect production providers as they run
// (lib/testing/verifications.ts activateProviders): this file keeps its own database
isolateTestDatabase();

const SECRET = "imported-client-secret-123";
const JWKS = {
  keys: [
    {
      kty: "EC",
      crv: "P-256",
      x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
      y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    },
  ],
};

afterEach(() => {
  delete process.env.IDV_UPSTREAM_OIDC;
  delete process.env.IDV_WALLET_TRUSTED_ISSUERS;
});

const row = async (providerId: string) =>
  (await kysely()
    .selectFrom("providerConnections")
    .selectAll()
    .where("environment", "=", "production")
    .where("providerId", "=", providerId)
    .executeTakeFirst()) ?? null;

describe("importing the environment variables into connections", () => {
  it("creates the missing production connections once, sealed and audited, and warns", async () => {
    process.env.IDV_UPSTREAM_OIDC = JSON.stringify({
      ch_swissid: { issuer: "https://login.swissid.example", clientId: "broker", clientSecret: SECRET },
      not_in_catalog: { issuer: "https://x.example", clientId: "x", clientSecret: "y" },
    });
    process.env.IDV_WALLET_TRUSTED_ISSUERS = JSON.stringify({
      digital_id_app: { issuers: { "https://issuer.example": JWKS }, vct: ["urn:example:id"] },
    });
    const warnings = await importEnvironmentConnections();
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /^IDV_UPSTREAM_OIDC is deprecated: connections are managed through the Operator API/,
    );
    expect(warnings[0]).toContain("Imported into production connections: ch_swissid.");
    expect(warnings[0]).toContain("not_in_catalog");
    expect(warnings[1]).toMatch(/^IDV_WALLET_TRUSTED_ISSUERS is deprecated/);
    expect(warnings.join(" ")).not.toContain(SECRET);

    const oidc = (await row("ch_swissid"))!;
    expect(oidc).toMatchObject({ adapter: "oidc", enabled: true });
    expect(oidc.settings).toEqual({ issuer: "https://login.swissid.example", clientId: "broker" });
    expect(JSON.parse(decryptSecret(oidc.secretsEncrypted!))).toEqual({ clientSecret: SECRET });
    expect(await connectionSettings("production", "ch_swissid", "oidc")).toMatchObject({
      clientSecret: SECRET,
    });
    expect(await connectionSettings("sandbox", "ch_swissid", "oidc")).toBeNull();
    expect(await row("not_in_catalog")).toBeNull();
    expect((await row("digital_id_app"))!.adapter).toBe("wallet");

    const audits = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", oidc.id)
      .execute();
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorType: "system",
      action: "connection.created",
      environment: "production",
    });
    expect(audits[0]!.data).toMatchObject({ importedFrom: "IDV_UPSTREAM_OIDC" });
    expect(JSON.stringify(audits)).not.toContain(SECRET);

    // an operator's change is never overwritten by a later start
    await putTestConnection("production", "ch_swissid", {
      adapter: "oidc",
      settings: { issuer: "https://login.swissid.example", clientId: "changed-by-operator" },
    });
    const again = await importEnvironmentConnections();
    expect(again[0]).toContain(
      "Not imported (a connection exists, or not a catalog provider for this adapter): ch_swissid",
    );
    expect(((await row("ch_swissid"))!.settings as { clientId: string }).clientId).toBe(
      "changed-by-operator",
    );
  });

  it("turns IDV_UPSTREAM_OIDC's claimMapping (OIDC claim → upstream name) around on import", async () => {
    process.env.IDV_UPSTREAM_OIDC = JSON.stringify({
      fi_ftn: {
        issuer: "https://ftn.example",
        clientId: "broker",
        clientSecret: SECRET,
        claimMapping: { given_name: "prenom", birthdate: "/person/birth/0" },
      },
    });
    await importEnvironmentConnections();
    expect(((await row("fi_ftn"))!.settings as { claimMapping: unknown }).claimMapping).toEqual({
      prenom: "given_name",
      "/person/birth/0": "birthdate",
    });
    // the variable's direction is checked as it was: a value that is not an OIDC claim is refused
    process.env.IDV_UPSTREAM_OIDC = JSON.stringify({
      fi_ftn: {
        issuer: "https://ftn.example",
        clientId: "b",
        clientSecret: "c",
        claimMapping: { sn: "surname" },
      },
    });
    await expect(checkConfiguration()).rejects.toThrow(
      /IDV_UPSTREAM_OIDC at "fi_ftn\.claimMapping\.surname"/,
    );
  });

  it("warns about nothing when both variables are unset", async () => {
    expect(await importEnvironmentConnections()).toEqual([]);
  });

  it("refuses to start on an entry its adapter refuses, naming it", async () => {
    process.env.IDV_UPSTREAM_OIDC = JSON.stringify({
      ch_swissid: { issuer: "http://insecure.example", clientId: "a", clientSecret: "b" },
    });
    await expect(checkConfiguration()).rejects.toThrow(ConfigError);
    await expect(checkConfiguration()).rejects.toThrow(/IDV_UPSTREAM_OIDC at "ch_swissid\.issuer"/);
  });
});
