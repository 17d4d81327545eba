import { describe, expect, it } from "vitest";
import { base, issues, messageAt, paths, withConfig, withStep } from "./validate-fixtures";

describe("config: request and response", () => {
  it("refuses config fields on request and response nodes", () => {
    const { nodes } = base();
    nodes[0]!.config = { colour: "red" };
    nodes[2]!.config = { status: "ok" };
    const found = issues({ entryNodeId: "request", nodes });
    expect(found).toEqual([
      { path: "nodes[0].config.colour", message: 'node "request": unknown field' },
      { path: "nodes[2].config.status", message: 'node "response": unknown field' },
    ]);
  });
});

describe("config: verification", () => {
  const verify = (config: Record<string, unknown>) => withConfig(1, config);
  const ok = { channel: "oidc", claims: ["given_name"] };

  it("requires channel and claims", () => {
    const found = issues(verify({}));
    expect(found).toEqual([
      { path: "nodes[1].config.channel", message: 'node "verify": is required' },
      { path: "nodes[1].config.claims", message: 'node "verify": is required' },
    ]);
  });

  it.each([
    [{ ...ok, channel: "sms" }, "nodes[1].config.channel", "must be one of: oidc, api"],
    [{ ...ok, channel: 1 }, "nodes[1].config.channel", "must be one of: oidc, api"],
    [{ ...ok, claims: "given_name" }, "nodes[1].config.claims", "must be an array of claim names"],
    [{ ...ok, claims: [] }, "nodes[1].config.claims", "must name at least one claim"],
    [
      { ...ok, claims: ["given_name", "shoe_size"] },
      "nodes[1].config.claims[1]",
      '"shoe_size" is not a known claim',
    ],
    [{ ...ok, claims: [42] }, "nodes[1].config.claims[0]", "must be a string"],
    [{ ...ok, claims: ["email", "email"] }, "nodes[1].config.claims[1]", '"email" is listed twice'],
    [{ ...ok, mode: "kyc" }, "nodes[1].config.mode", "must be one of: pii, age_verification"],
    [
      { ...ok, mode: "age_verification" },
      "nodes[1].config.minimumAge",
      "is required when mode is age_verification",
    ],
    [{ ...ok, minimumAge: 18 }, "nodes[1].config.minimumAge", "only applies when mode is age_verification"],
    [{ ...ok, mode: "pii", minimumAge: 18 }, "nodes[1].config.minimumAge", "only applies"],
    [{ ...ok, mode: "age_verification", minimumAge: 0 }, "nodes[1].config.minimumAge", "must be at least 1"],
    [
      { ...ok, mode: "age_verification", minimumAge: 151 },
      "nodes[1].config.minimumAge",
      "must be at most 150",
    ],
    [
      { ...ok, mode: "age_verification", minimumAge: 17.5 },
      "nodes[1].config.minimumAge",
      "must be an integer",
    ],
    [{ ...ok, mode: "age_verification", minimumAge: "18" }, "nodes[1].config.minimumAge", "must be a number"],
    [{ ...ok, branding: "app" }, "nodes[1].config.branding", "must be an object"],
    [{ ...ok, branding: { colour: "red" } }, "nodes[1].config.branding.colour", "unknown field"],
    [
      { ...ok, branding: { useAppBranding: "yes" } },
      "nodes[1].config.branding.useAppBranding",
      "must be a boolean",
    ],
    [{ ...ok, branding: { name: " " } }, "nodes[1].config.branding.name", "must not be empty"],
    [{ ...ok, branding: { name: "x".repeat(101) } }, "nodes[1].config.branding.name", "at most 100"],
    [{ ...ok, branding: { logo: "https://x.example/logo.png" } }, "nodes[1].config.branding.logo", "data"],
    [
      { ...ok, providers: ["passport"] },
      "nodes[1].config.providers",
      "must be an object keyed by provider id",
    ],
    [
      { ...ok, providers: { nope: { enabled: true } } },
      "nodes[1].config.providers.nope",
      '"nope" is not a provider of this app',
    ],
    [{ ...ok, providers: { acme: true } }, "nodes[1].config.providers.acme", "must be an object"],
    [
      { ...ok, providers: { acme: { enabled: "no" } } },
      "nodes[1].config.providers.acme.enabled",
      "must be a boolean",
    ],
    [{ ...ok, providers: { acme: {} } }, "nodes[1].config.providers.acme.enabled", "is required"],
    [
      { ...ok, providers: { acme: { enabled: false, minLoa: 2 } } },
      "nodes[1].config.providers.acme.minLoa",
      "unknown field",
    ],
    [
      { ...ok, providers: { acme: { enabled: false }, passport: { enabled: false } } },
      "nodes[1].config.providers",
      "opts out every provider of the app",
    ],
    [{ ...ok, colour: "red" }, "nodes[1].config.colour", "unknown field"],
  ])("refuses %j at %s", (config, path, message) => {
    const found = issues(verify(config));
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
    expect(found[0]!.message).toMatch(/^node "verify": /);
  });

  it("lists the app's providers when a key is not one of them", () => {
    expect(
      messageAt(verify({ ...ok, providers: { nope: { enabled: true } } }), "nodes[1].config.providers.nope"),
    ).toBe('node "verify": "nope" is not a provider of this app (its providers: acme, passport)');
  });

  it("accepts opting out some providers, and any keys when they are the app's", () => {
    expect(issues(verify({ ...ok, providers: { acme: { enabled: false } } }))).toEqual([]);
    expect(issues(verify({ ...ok, providers: {} }))).toEqual([]);
  });

  it("reports several problems at once", () => {
    expect(
      paths(
        verify({ channel: "sms", claims: ["nope"], extra: 1, providers: { ghost: { enabled: true } } }),
      ).sort(),
    ).toEqual([
      "nodes[1].config.channel",
      "nodes[1].config.claims[0]",
      "nodes[1].config.extra",
      "nodes[1].config.providers.ghost",
    ]);
  });
});

describe("config: check-claim", () => {
  const step = (config: Record<string, unknown>) => withStep({ type: "check-claim", config });
  it.each([
    [{}, "nodes[2].config.claimChecks", "is required"],
    [{ claimChecks: [] }, "nodes[2].config.claimChecks", "at least one"],
    [{ claimChecks: {} }, "nodes[2].config.claimChecks", "must be an array"],
    [{ claimChecks: ["email"] }, "nodes[2].config.claimChecks[0]", "must be an object"],
    [{ claimChecks: [{ field: "email" }] }, "nodes[2].config.claimChecks[0].source", "is required"],
    [
      { claimChecks: [{ source: "admin", field: "email" }] },
      "nodes[2].config.claimChecks[0].source",
      "must be one of: user",
    ],
    [{ claimChecks: [{ source: "user" }] }, "nodes[2].config.claimChecks[0].field", "is required"],
    [
      { claimChecks: [{ source: "user", field: "iban" }] },
      "nodes[2].config.claimChecks[0].field",
      "not a known claim",
    ],
    [
      { claimChecks: [{ source: "user", field: "email", op: "exists" }] },
      "nodes[2].config.claimChecks[0].op",
      "unknown field",
    ],
  ])("refuses %j at %s", (config, path, message) => {
    const found = issues(step(config));
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
  });

  it("accepts user claim checks", () => {
    expect(issues(step({ claimChecks: [{ source: "user", field: "nationality" }] }))).toEqual([]);
  });
});

describe("config: check-min-loa", () => {
  const step = (config: Record<string, unknown>) => withStep({ type: "check-min-loa", config });
  it.each([1, 2, 3])("accepts minLoa %d", (minLoa) => {
    expect(issues(step({ minLoa }))).toEqual([]);
  });
  it.each([
    [{}, "is required"],
    [{ minLoa: 0 }, "must be 1, 2 or 3"],
    [{ minLoa: 4 }, "must be 1, 2 or 3"],
    [{ minLoa: 2.5 }, "must be an integer"],
    [{ minLoa: "2" }, "must be a number"],
  ])("refuses %j", (config, message) => {
    const found = issues(step(config));
    expect(found.map((i) => i.path)).toEqual(["nodes[2].config.minLoa"]);
    expect(found[0]!.message).toContain(message);
  });
  it("refuses unknown fields", () => {
    expect(paths(step({ minLoa: 2, maxLoa: 3 }))).toEqual(["nodes[2].config.maxLoa"]);
  });
});

describe("config: evaluate and conditions", () => {
  const step = (config: Record<string, unknown>) => withStep({ type: "evaluate", config });
  const cond = (condition: Record<string, unknown>) => step({ conditions: [condition] });
  const at = "nodes[2].config.conditions[0]";

  it.each([
    [{}, "nodes[2].config.conditions", "is required"],
    [{ conditions: [] }, "nodes[2].config.conditions", "at least one condition"],
    [{ conditions: "all" }, "nodes[2].config.conditions", "must be an array"],
    [
      { conditions: [{ source: "loa", op: "gte", value: 2 }], operator: "most" },
      "nodes[2].config.operator",
      "must be one of: all, any",
    ],
    [
      { conditions: [{ source: "loa", op: "gte", value: 2 }], reasonCode: "Too Young!" },
      "nodes[2].config.reasonCode",
      "lowercase",
    ],
    [
      { conditions: [{ source: "loa", op: "gte", value: 2 }], message: "x" },
      "nodes[2].config.message",
      "unknown field",
    ],
  ])("refuses %j at %s", (config, path, message) => {
    const found = issues(step(config));
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
  });

  it.each([
    [{ op: "exists", field: "email" }, `${at}.source`, "is required"],
    [{ source: "device", op: "exists" }, `${at}.source`, "must be one of: claim, loa, provider"],
    [{ source: "claim", field: "email" }, `${at}.op`, "is required"],
    [{ source: "claim", field: "email", op: "matches", value: "x" }, `${at}.op`, "must be one of"],
    [{ source: "claim", field: "email", op: "exists", colour: 1 }, `${at}.colour`, "unknown field"],
    [{ source: "claim", op: "exists" }, `${at}.field`, "is required when source is claim"],
    [{ source: "claim", field: "iban", op: "exists" }, `${at}.field`, '"iban" is not a known claim name'],
    [{ source: "loa", field: "email", op: "gte", value: 2 }, `${at}.field`, "only used when source is claim"],
    [{ source: "loa", op: "exists" }, `${at}.op`, "exists does not apply to source loa"],
    [{ source: "provider", op: "gte", value: "a" }, `${at}.op`, "gte does not apply to source provider"],
    [{ source: "provider", op: "age_gte", value: 18 }, `${at}.op`, "does not apply"],
    [
      { source: "claim", field: "email", op: "exists", value: true },
      `${at}.value`,
      "must be absent for exists",
    ],
    [{ source: "claim", field: "email", op: "not_exists", value: 1 }, `${at}.value`, "must be absent"],
    [{ source: "claim", field: "email", op: "equals" }, `${at}.value`, "is required for equals"],
    [
      { source: "claim", field: "address", op: "equals", value: { city: "x" } },
      `${at}.value`,
      "string, number or boolean",
    ],
    [
      { source: "claim", field: "nationality", op: "in", value: "DE" },
      `${at}.value`,
      "must be an array of 1–100 values",
    ],
    [{ source: "claim", field: "nationality", op: "not_in", value: [] }, `${at}.value`, "1–100"],
    [{ source: "claim", field: "nationality", op: "in" }, `${at}.value`, "is required for in"],
    [
      { source: "claim", field: "nationality", op: "in", value: ["DE", null] },
      `${at}.value[1]`,
      "string, number or boolean",
    ],
    [{ source: "claim", field: "birthdate", op: "gte", value: true }, `${at}.value`, "a number or a string"],
    [{ source: "claim", field: "birthdate", op: "lte" }, `${at}.value`, "is required for lte"],
    [{ source: "loa", op: "gte", value: 4 }, `${at}.value`, "level of assurance 0, 1, 2 or 3"],
    [{ source: "loa", op: "equals", value: "high" }, `${at}.value`, "level of assurance"],
    [{ source: "loa", op: "in", value: [1, 5] }, `${at}.value[1]`, "level of assurance"],
    [{ source: "provider", op: "equals", value: 1 }, `${at}.value`, "must be a provider id"],
    [
      { source: "provider", op: "equals", value: "no-such-eid" },
      `${at}.value`,
      '"no-such-eid" is not a provider of the catalog',
    ],
    [
      { source: "provider", op: "in", value: ["passport", "nope"] },
      `${at}.value[1]`,
      "not a provider of the catalog",
    ],
    [
      { source: "claim", field: "email", op: "age_gte", value: 18 },
      `${at}.field`,
      "age_gte applies to birthdate only",
    ],
    [{ source: "claim", field: "birthdate", op: "age_gte" }, `${at}.value`, "is required for age_gte"],
    [{ source: "claim", field: "birthdate", op: "age_lt", value: -1 }, `${at}.value`, "age in whole years"],
    [
      { source: "claim", field: "birthdate", op: "age_gte", value: 17.5 },
      `${at}.value`,
      "age in whole years",
    ],
  ])("refuses the condition %j at %s", (condition, path, message) => {
    const found = issues(cond(condition));
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
  });

  it("points at the right condition of several", () => {
    const draft = step({
      conditions: [
        { source: "loa", op: "gte", value: 2 },
        { source: "claim", field: "email", op: "exists" },
        { source: "loa", op: "gte", value: 9 },
      ],
    });
    expect(paths(draft)).toEqual(["nodes[2].config.conditions[2].value"]);
  });
});

describe("config: if", () => {
  const step = (config: Record<string, unknown>) => {
    const draft = withStep({ type: "if", config });
    const node = draft.nodes[2]!;
    delete node.next;
    node.then = "response";
    node.else = "response";
    return draft;
  };
  it("requires a condition", () => {
    expect(issues(step({}))).toEqual([
      { path: "nodes[2].config.condition", message: 'node "step": is required' },
    ]);
  });
  it("checks the condition", () => {
    expect(paths(step({ condition: { source: "loa", op: "gte", value: 7 } }))).toEqual([
      "nodes[2].config.condition.value",
    ]);
    expect(paths(step({ condition: "loa >= 2" }))).toEqual(["nodes[2].config.condition"]);
  });
  it("refuses a list of conditions (that is what evaluate is for)", () => {
    expect(paths(step({ condition: { source: "loa", op: "gte", value: 2 }, conditions: [] }))).toEqual([
      "nodes[2].config.conditions",
    ]);
  });
  it("accepts a valid condition", () => {
    expect(
      issues(step({ condition: { source: "claim", field: "birthdate", op: "age_gte", value: 18 } })),
    ).toEqual([]);
  });
});
