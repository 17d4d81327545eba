/** The starter workflow every app gets, end to end: plan at session start, checks at the answer. */
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../providers/catalog";
import { STARTER_PROVIDER_ID, starterWorkflow } from "../starter";
import { planVerification } from "./plan";
import { runChecks } from "./run";
import { catalogIdentity, NOW } from "./test-fixtures";

const starter = starterWorkflow();
const appProviders = Object.fromEntries(PROVIDERS.map((p) => [p.id, { enabled: true }]));

function session(providerId: string, scenario: "success" | "missing_claims" | "low_loa") {
  const { provider, identity, loa } = catalogIdentity(providerId, scenario);
  const plan = planVerification(starter, { providerId, provider, appProviders });
  return { plan, result: runChecks(starter, plan.verificationNodeId, { provider, identity, loa, now: NOW }) };
}

describe("starter workflow, end to end", () => {
  it("verifies Anna Eriksson with the passport: the four requested claims, nothing missing", () => {
    const { plan, result } = session(STARTER_PROVIDER_ID, "success");
    expect(plan).toMatchObject({ verificationNodeId: "verification", mode: "pii", channel: "oidc" });
    expect(result).toEqual({
      outcome: "completed",
      user: { given_name: "Anna", family_name: "Eriksson", birthdate: "1974-08-12", nationality: "SE" },
      missingClaims: [],
      path: ["verification", "response"],
    });
  });

  it("lists the birthdate as missing for the passport's missing-claims identity (nationality is not standard)", () => {
    const { result } = session(STARTER_PROVIDER_ID, "missing_claims");
    expect(result).toMatchObject({
      outcome: "completed",
      user: { given_name: "Anna", family_name: "Eriksson" },
      missingClaims: ["birthdate"],
    });
  });

  it("has no LoA check, so a low-LoA answer still completes", () => {
    expect(session(STARTER_PROVIDER_ID, "low_loa").result.outcome).toBe("completed");
  });

  it("completes for the success identity of every disclosure provider of the catalog", () => {
    const disclosure = PROVIDERS.filter((p) => p.verificationModel === "disclosure");
    expect(disclosure.length).toBeGreaterThan(10);
    for (const provider of disclosure) {
      const { result } = session(provider.id, "success");
      if (result.outcome !== "completed") throw new Error(`${provider.id}: ${result.message}`);
      const gives = (claim: string) => (provider.claims as string[]).includes(claim);
      const expected = ["given_name", "family_name", "birthdate", "nationality"].filter(gives);
      expect(Object.keys(result.user).sort(), provider.id).toEqual(expected.sort());
      expect(result.missingClaims, provider.id).toEqual(
        ["given_name", "family_name", "birthdate"].filter((c) => !gives(c)),
      );
    }
  });

  it("refuses a provider the app has disabled", () => {
    const { provider } = catalogIdentity("de_eid", "success");
    expect(() =>
      planVerification(starter, {
        providerId: "de_eid",
        provider,
        appProviders: { ...appProviders, de_eid: { enabled: false } },
      }),
    ).toThrow(/not enabled for this app/);
  });
});
