import { describe, expect, it } from "vitest";
import { findProvider } from "../providers/catalog";
import { providerSpecificClaims } from "./claims";
import { deriveVerificationSettings } from "./settings";
import { starterWorkflow } from "./starter";

const passportSpecific = providerSpecificClaims(findProvider("passport")!.scopes);

describe("deriveVerificationSettings", () => {
  it("reads the starter workflow as identity with its claims", () => {
    const settings = deriveVerificationSettings(
      [{ providerId: "passport", enabled: true }],
      starterWorkflow(),
    );
    expect(settings).toEqual({
      verification_type: "identity",
      request_attributes: ["given_name", "family_name", "birthdate", "nationality"],
      minimum_age: null,
      branding: { useAppBranding: true, name: null, logo: null },
      providers: [{ provider_id: "passport", enabled: true, provider_specific_attributes: passportSpecific }],
    });
  });

  it("reports age verification, opt-outs, disabled providers and unknown providers", () => {
    const workflow = {
      entryNodeId: "r",
      nodes: [
        { id: "r", type: "request", next: "v" },
        {
          id: "v",
          type: "verification",
          next: "end",
          config: {
            channel: "api",
            claims: ["birthdate"],
            mode: "age_verification",
            minimumAge: 18,
            providers: { passport: { enabled: false } },
          },
        },
        { id: "end", type: "response" },
      ],
    };
    const settings = deriveVerificationSettings(
      [
        { providerId: "zeta-id", enabled: true },
        { providerId: "passport", enabled: true },
        { providerId: "acme", enabled: false },
      ],
      workflow,
    );
    expect(settings.verification_type).toBe("age_verification");
    expect(settings.request_attributes).toEqual(["birthdate"]);
    expect(settings.minimum_age).toBe(18);
    expect(settings.branding).toEqual({ useAppBranding: false, name: null, logo: null });
    expect(settings.providers).toEqual([
      { provider_id: "acme", enabled: false, provider_specific_attributes: [] },
      { provider_id: "passport", enabled: false, provider_specific_attributes: passportSpecific },
      { provider_id: "zeta-id", enabled: true, provider_specific_attributes: [] },
    ]);
  });

  it("takes the first verification node of a branching workflow", () => {
    const workflow = {
      entryNodeId: "r",
      nodes: [
        { id: "r", type: "request", next: "if" },
        { id: "if", type: "if", then: "first", else: "second" },
        {
          id: "second",
          type: "verification",
          next: "end",
          config: { claims: ["email"], mode: "age_verification" },
        },
        { id: "first", type: "verification", next: "end", config: { claims: ["name"] } },
        { id: "end", type: "response" },
      ],
    };
    const settings = deriveVerificationSettings([], workflow);
    expect(settings).toMatchObject({
      verification_type: "identity",
      request_attributes: ["name"],
      providers: [],
    });
  });

  it("reads an app without a default workflow as identity with no attributes", () => {
    expect(deriveVerificationSettings([{ providerId: "acme", enabled: true }], undefined)).toEqual({
      verification_type: "identity",
      request_attributes: [],
      minimum_age: null,
      branding: { useAppBranding: false, name: null, logo: null },
      providers: [{ provider_id: "acme", enabled: true, provider_specific_attributes: [] }],
    });
  });
});
