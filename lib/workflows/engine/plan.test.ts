import { describe, expect, it } from "vitest";
import { apiErrorOf } from "../../testing/api-error";
import { starterWorkflow } from "../starter";
import { planVerification, type TPlanInput } from "./plan";
import {
  linear,
  provider,
  requestNode,
  responseNode,
  unchecked,
  verificationNode,
  workflow,
} from "./test-fixtures";
import type { TRunnableWorkflow } from "./nodes";

const enabled = (...ids: string[]) => Object.fromEntries(ids.map((id) => [id, { enabled: true }]));

function input(providerId: string, appProviders = enabled("passport", "de_eid", "nl_digid")): TPlanInput {
  return { providerId, provider: provider(providerId), appProviders };
}

/** request → if provider = passport → (then) vPassport | (else) vOther → response */
const byProvider: TRunnableWorkflow = workflow([
  requestNode("route"),
  {
    id: "route",
    type: "if",
    then: "vPassport",
    else: "vOther",
    config: { condition: { source: "provider", op: "equals", value: "passport" } },
  },
  verificationNode({ claims: ["given_name", "nationality"] }, "response", "vPassport"),
  verificationNode(
    { channel: "oidc", mode: "age_verification", minimumAge: 18, claims: ["given_name"] },
    "response",
    "vOther",
  ),
  responseNode(),
]);

describe("planVerification", () => {
  it("plans the starter workflow for passport", () => {
    const starter = starterWorkflow();
    const plan = planVerification(starter, input("passport"));
    expect(plan).toEqual({
      verificationNodeId: "verification",
      config: starter.nodes[1]!.config,
      requestedClaims: ["given_name", "family_name", "birthdate", "nationality"],
      mode: "pii",
      channel: "oidc",
      branding: { useAppBranding: true },
      path: ["request", "verification"],
      sourceClaims: ["given_name", "family_name", "birthdate", "nationality"],
    });
    expect(plan).not.toHaveProperty("minimumAge");
  });

  it("takes then/else of an if on the provider before the verification node", () => {
    const passport = planVerification(byProvider, input("passport"));
    expect(passport.verificationNodeId).toBe("vPassport");
    expect(passport.path).toEqual(["request", "route", "vPassport"]);
    expect(passport.mode).toBe("pii");
    expect(passport.channel).toBe("api");

    const other = planVerification(byProvider, input("de_eid"));
    expect(other.verificationNodeId).toBe("vOther");
    expect(other.path).toEqual(["request", "route", "vOther"]);
    expect(other.mode).toBe("age_verification");
    expect(other.minimumAge).toBe(18);
    expect(other.channel).toBe("oidc");
    expect(other.requestedClaims).toEqual(["given_name"]);
    // the age is computed from the birthdate, so the source is asked for it
    expect(other.sourceClaims).toEqual(["given_name", "birthdate"]);
  });

  it("evaluates in/not_in provider conditions before the verification node", () => {
    const wf = workflow([
      requestNode("route"),
      {
        id: "route",
        type: "if",
        then: "vA",
        else: "vB",
        config: { condition: { source: "provider", op: "not_in", value: ["passport", "nl_digid"] } },
      },
      verificationNode({}, "response", "vA"),
      verificationNode({}, "response", "vB"),
      responseNode(),
    ]);
    expect(planVerification(wf, input("de_eid")).verificationNodeId).toBe("vA");
    expect(planVerification(wf, input("nl_digid")).verificationNodeId).toBe("vB");
  });

  it("passes an evaluate of provider conditions and refuses a provider it rejects", () => {
    const wf = workflow([
      requestNode("only"),
      {
        id: "only",
        type: "evaluate",
        next: "verification",
        config: {
          conditions: [{ source: "provider", op: "in", value: ["passport", "de_eid"] }],
          reasonCode: "provider_not_allowed",
        },
      },
      verificationNode(),
      responseNode(),
    ]);
    expect(planVerification(wf, input("de_eid")).path).toEqual(["request", "only", "verification"]);
    const error = apiErrorOf(() => planVerification(wf, input("nl_digid")));
    expect(error.code).toBe("PROVIDER_NOT_AVAILABLE");
    expect(error.status).toBe(400);
    expect(error.details).toEqual([{ path: "providerId", message: error.message }]);
    expect(error.message).toContain('"nl_digid"');
    expect(error.message).toContain("provider_not_allowed");
    expect(error.message).toContain('provider in ["passport", "de_eid"]');
  });

  it("evaluate with operator any passes when one provider condition holds", () => {
    const wf = workflow([
      requestNode("only"),
      {
        id: "only",
        type: "evaluate",
        next: "verification",
        config: {
          operator: "any",
          conditions: [
            { source: "provider", op: "equals", value: "passport" },
            { source: "provider", op: "equals", value: "de_eid" },
          ],
        },
      },
      verificationNode(),
      responseNode(),
    ]);
    expect(planVerification(wf, input("de_eid")).verificationNodeId).toBe("verification");
    const error = apiErrorOf(() => planVerification(wf, input("nl_digid")));
    expect(error.code).toBe("PROVIDER_NOT_AVAILABLE");
    expect(error.message).toContain("evaluation_failed");
  });

  it("refuses a provider the node opts out (opt-out model)", () => {
    const wf = linear({ providers: { passport: { enabled: false }, de_eid: { enabled: true } } });
    const error = apiErrorOf(() => planVerification(wf, input("passport")));
    expect(error.code).toBe("PROVIDER_NOT_AVAILABLE");
    expect(error.details).toEqual([{ path: "providerId", message: expect.stringContaining("opts it out") }]);
    // listed with enabled true, and not listed at all, are both in
    expect(planVerification(wf, input("de_eid")).verificationNodeId).toBe("verification");
    expect(planVerification(wf, input("nl_digid")).verificationNodeId).toBe("verification");
  });

  it("refuses a provider the app has not enabled, even when the node lists it as enabled", () => {
    const wf = linear({ providers: { de_eid: { enabled: true } } });
    const disabled = { ...enabled("passport"), de_eid: { enabled: false } };
    for (const appProviders of [disabled, enabled("passport")]) {
      const error = apiErrorOf(() => planVerification(wf, input("de_eid", appProviders)));
      expect(error.code).toBe("PROVIDER_NOT_AVAILABLE");
      expect(error.details[0]).toEqual({
        path: "providerId",
        message: 'Provider "de_eid" is not enabled for this app',
      });
    }
  });

  it("returns the node's own branding unless it uses the app's", () => {
    const logo =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const own = planVerification(
      linear({ branding: { useAppBranding: false, name: "Shop", logo } }),
      input("passport"),
    );
    expect(own.branding).toEqual({ useAppBranding: false, name: "Shop", logo });
    const unset = planVerification(linear({ branding: { name: "Shop", logo: "" } }), input("passport"));
    expect(unset.branding).toEqual({ useAppBranding: false, name: "Shop" });
    const none = planVerification(linear({}), input("passport"));
    expect(none.branding).toEqual({ useAppBranding: false });
    const app = planVerification(
      linear({ branding: { useAppBranding: true, name: "Ignored" } }),
      input("passport"),
    );
    expect(app.branding).toEqual({ useAppBranding: true });
  });

  it("asks the source for the claims the checks after the node read, without requesting them", () => {
    const wf = workflow([
      requestNode(),
      verificationNode({ claims: ["given_name"] }, "check"),
      {
        id: "check",
        type: "check-claim",
        next: "branch",
        config: { claimChecks: [{ source: "user", field: "email" }] },
      },
      {
        id: "branch",
        type: "if",
        then: "adult",
        else: "response",
        config: { condition: { source: "claim", field: "nationality", op: "equals", value: "DE" } },
      },
      {
        id: "adult",
        type: "evaluate",
        next: "response",
        config: {
          conditions: [
            { source: "claim", field: "birthdate", op: "age_gte", value: 18 },
            { source: "loa", op: "gte", value: 2 },
          ],
        },
      },
      responseNode(),
    ]);
    const plan = planVerification(wf, input("passport"));
    expect(plan.requestedClaims).toEqual(["given_name"]);
    expect(plan.sourceClaims).toEqual(["given_name", "email", "nationality", "birthdate"]);
  });

  describe("workflows validation would refuse", () => {
    const defect = (wf: TRunnableWorkflow, pattern: RegExp) => {
      const error = apiErrorOf(() => planVerification(wf, input("passport")));
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.details).toEqual([{ path: "workflowId", message: error.message }]);
      expect(error.message).toMatch(pattern);
    };

    it("an entry that does not exist or is not a request", () => {
      defect(
        unchecked([requestNode(), verificationNode(), responseNode()], "nowhere"),
        /"nowhere", which is not a node/,
      );
      defect(
        unchecked([verificationNode(), responseNode()]),
        /entry node "verification" is a verification node/,
      );
    });

    it("a broken or missing link, a cycle, a second request", () => {
      defect(unchecked([requestNode("ghost"), responseNode()]), /node "request": next names "ghost"/);
      defect(unchecked([{ id: "request", type: "request" }]), /node "request": next is missing/);
      defect(
        unchecked([
          requestNode("a"),
          {
            id: "a",
            type: "if",
            then: "a",
            else: "a",
            config: { condition: { source: "provider", op: "equals", value: "passport" } },
          },
        ]),
        /cycle/,
      );
      defect(
        unchecked([
          requestNode("r2"),
          { id: "r2", type: "request", next: "verification" },
          verificationNode(),
          responseNode(),
        ]),
        /second request/,
      );
    });

    it("checks, responses or claim conditions before the verification node", () => {
      defect(unchecked([requestNode("response"), responseNode()]), /response node cannot come before/);
      defect(
        unchecked([
          requestNode("loa"),
          { id: "loa", type: "check-min-loa", next: "verification", config: { minLoa: 2 } },
          verificationNode(),
          responseNode(),
        ]),
        /check-min-loa node cannot come before/,
      );
      defect(
        unchecked([
          requestNode("branch"),
          {
            id: "branch",
            type: "if",
            then: "verification",
            else: "verification",
            config: { condition: { source: "loa", op: "gte", value: 2 } },
          },
          verificationNode(),
          responseNode(),
        ]),
        /node "branch": tests the level of assurance before the verification node/,
      );
      defect(
        unchecked([
          requestNode("mystery"),
          { id: "mystery", type: "mystery", next: "verification" },
          verificationNode(),
          responseNode(),
        ]),
        /mystery node/,
      );
    });

    it("an unparseable verification config or an age mode without minimumAge", () => {
      defect(
        unchecked([
          requestNode(),
          { id: "verification", type: "verification", next: "response", config: { claims: ["name"] } },
          responseNode(),
        ]),
        /node "verification": config.channel/,
      );
      defect(
        unchecked([requestNode(), verificationNode({ mode: "age_verification" }), responseNode()]),
        /minimumAge/,
      );
      defect(
        unchecked([
          requestNode(),
          { id: "verification", type: "verification", next: "response" },
          responseNode(),
        ]),
        /node "verification": config/,
      );
    });
  });
});
