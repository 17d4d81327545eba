import { describe, expect, it } from "vitest";
import { adapterSettingsJsonSchema } from "@/lib/connections/settings-schema";
import {
  detailsNoFieldShows,
  draftOf,
  fieldsOf,
  labelOf,
  settingsOf,
  type TJsonSchema,
} from "./settings-model";

const SCHEMA: TJsonSchema = {
  type: "object",
  properties: {
    issuer: { type: "string", format: "uri" },
    clientId: { type: "string", minLength: 1 } as TJsonSchema,
    clientSecret: { type: "string", writeOnly: true },
    clientAuthMethod: { type: "string", enum: ["client_secret_basic", "private_key_jwt"] },
    privateKeyJwk: { type: "object", writeOnly: true, properties: {}, additionalProperties: {} },
    metadataXml: { type: "string" },
    scopes: { type: "array", items: { type: "string" } },
    claimMapping: {
      type: "object",
      propertyNames: { type: "string" },
      additionalProperties: { type: "string" },
    } as TJsonSchema,
    acrToLoa: { type: "object", additionalProperties: { type: "integer" } },
    requestObject: {
      type: "object",
      properties: { signingAlg: { type: "string" } },
      additionalProperties: false,
    },
    pushedAuthorizationRequests: { type: "boolean" },
    loa: { type: "integer" },
    issuers: {
      type: "object",
      additionalProperties: { type: "object", properties: { keys: { type: "array" } } },
    },
  },
  required: ["issuer", "clientId"],
  additionalProperties: false,
};

describe("the mapping editors of the real adapters", () => {
  it("edits oidc's claimMapping with OIDC rules and saml's attributeMapping with SAML rules (sub allowed)", () => {
    const oidc = fieldsOf(adapterSettingsJsonSchema("oidc") as TJsonSchema);
    const saml = fieldsOf(adapterSettingsJsonSchema("saml") as TJsonSchema);
    expect(oidc.find((f) => f.name === "claimMapping")).toMatchObject({
      kind: "claimMapping",
      protocol: "oidc",
    });
    expect(saml.find((f) => f.name === "attributeMapping")).toMatchObject({
      kind: "claimMapping",
      protocol: "saml",
    });
  });
});

describe("the connection form generated from a settings JSON Schema", () => {
  const fields = fieldsOf(SCHEMA, ["clientSecret"]);
  const byName = Object.fromEntries(fields.map((f) => [f.name, f]));

  it("chooses a control for each kind of setting", () => {
    expect(byName.issuer).toMatchObject({ kind: "text", multiline: false, format: "uri", required: true });
    expect(byName.clientSecret).toMatchObject({ kind: "text", secret: true, required: false });
    expect(byName.clientAuthMethod).toMatchObject({
      kind: "text",
      options: ["client_secret_basic", "private_key_jwt"],
    });
    expect(byName.privateKeyJwk).toMatchObject({ kind: "json", secret: true });
    expect(byName.metadataXml).toMatchObject({ kind: "text", multiline: true });
    expect(byName.scopes).toMatchObject({ kind: "list" });
    expect(byName.claimMapping).toMatchObject({ kind: "claimMapping", protocol: "oidc" });
    expect(byName.acrToLoa).toMatchObject({ kind: "map", values: "number" });
    expect(byName.requestObject).toMatchObject({
      kind: "group",
      fields: [{ path: "requestObject.signingAlg", kind: "text" }],
    });
    expect(byName.pushedAuthorizationRequests).toMatchObject({ kind: "boolean" });
    expect(byName.loa).toMatchObject({ kind: "number", integer: true });
    expect(byName.issuers).toMatchObject({ kind: "json" });
  });

  it("labels settings for people", () => {
    expect(labelOf("clientId")).toBe("Client ID");
    expect(labelOf("acrToLoa")).toBe("ACR to LoA");
    expect(labelOf("metadataXml")).toBe("Metadata XML");
    expect(labelOf("allowInsecureRequests")).toBe("Allow insecure requests");
    expect(labelOf("forceAuthn")).toBe("Force authentication");
  });

  it("round-trips stored settings through the draft, secrets never prefilled, empty values left out", () => {
    const stored = {
      issuer: "https://eid.example.test",
      clientId: "broker",
      scopes: ["openid", "profile"],
      claimMapping: { prenom: "given_name" },
      acrToLoa: { eidas2: 2 },
      requestObject: { signingAlg: "PS256" },
      pushedAuthorizationRequests: false,
      issuers: { "https://wallet.example": { keys: [{ kty: "EC" }] } },
    };
    const draft = draftOf(fields, stored);
    expect(draft.clientSecret).toBe("");
    expect(draft.privateKeyJwk).toBe("");
    expect(draft.scopes).toBe("openid\nprofile");
    expect(settingsOf(fields, draft)).toEqual({ settings: stored, errors: {} });
  });

  it("sends a typed secret, numbers as numbers, and names what it cannot read", () => {
    const draft = draftOf(fields, {});
    draft.clientSecret = "s3cret";
    draft.loa = "2";
    draft.acrToLoa = [
      { key: "eidas3", value: "3" },
      { key: "", value: "ignored" },
    ];
    expect(settingsOf(fields, draft).settings).toEqual({
      clientSecret: "s3cret",
      loa: 2,
      acrToLoa: { eidas3: 3 },
    });
    draft.loa = "two";
    draft.issuers = "{ not json";
    draft.acrToLoa = [{ key: "eidas3", value: "high" }];
    expect(settingsOf(fields, draft).errors).toEqual({
      loa: "must be a number",
      issuers: "must be JSON",
      acrToLoa: "the value of eidas3 must be a number",
    });
  });
});

describe("the scheme parameters of the real adapter schemas (SPID, CIE, GOV.UK, FranceConnect …)", () => {
  it("renders authorizationParameters as a map of texts and round-trips it", () => {
    const fields = fieldsOf(adapterSettingsJsonSchema("oidc") as TJsonSchema);
    const field = fields.find((f) => f.name === "authorizationParameters");
    expect(field).toMatchObject({ kind: "map", values: "text", required: false });
    const stored = {
      issuer: "https://eid.example.test",
      clientId: "broker",
      authorizationParameters: { acr_values: "eidas2", vtr: '["Cl.Cm"]' },
    };
    expect(settingsOf(fields, draftOf(fields, stored)).settings).toEqual(stored);
  });

  it("renders forceAuthn as a switch, the index as a whole number, organization and contactPerson as JSON, and round-trips them", () => {
    const fields = fieldsOf(adapterSettingsJsonSchema("saml") as TJsonSchema);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.forceAuthn).toMatchObject({ kind: "boolean" });
    expect(byName.attributeConsumingServiceIndex).toMatchObject({ kind: "number", integer: true });
    // one language or several, one contact or a list: JSON, with the shapes in the description
    expect(byName.organization).toMatchObject({ kind: "json", description: expect.stringContaining("lang") });
    expect(byName.contactPerson).toMatchObject({
      kind: "json",
      description: expect.stringContaining("email"),
    });
    const stored = {
      spEntityId: "https://broker.example.test/sp",
      forceAuthn: true,
      attributeConsumingServiceIndex: 0,
      organization: { it: { name: "Comune", displayName: "Comune", url: "https://comune.example.it" } },
      contactPerson: [{ type: "other", email: "spid@comune.example.it" }],
    };
    const draft = draftOf(fields, stored);
    expect(draft.attributeConsumingServiceIndex).toBe("0");
    expect(settingsOf(fields, draft).settings).toEqual(stored);
  });
});

describe("detailsNoFieldShows", () => {
  it("leaves out the details a field, a group's field, the adapter or the switch shows", () => {
    const fields = fieldsOf(SCHEMA, ["clientSecret"]);
    const detail = (path: string) => ({ path, message: "is wrong" });
    const shown = [
      "adapter",
      "enabled",
      "settings.issuer",
      "settings.scopes[0]",
      "settings.claimMapping.prenom",
      "settings.requestObject.signingAlg",
    ].map(detail);
    const unshown = [detail("settings"), detail("settings.unknownField"), detail("name")];
    expect(detailsNoFieldShows(fields, [...shown, ...unshown])).toEqual(unshown);
    expect(detailsNoFieldShows(fields, [])).toEqual([]);
  });
});
