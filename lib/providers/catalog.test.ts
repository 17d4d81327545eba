import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KNOWN_CLAIMS, SCOPE_CLAIMS } from "./claims";
import { isIsoCountry } from "./countries";
import { FLOW_TYPES, findProvider, findTestIdentity, PROVIDERS } from "./catalog";
import { TEST_SCENARIOS } from "./identities";
import { REQUIREMENT_TYPES } from "./requirements";

const publicDir = path.resolve(import.meta.dirname, "..", "..", "public");

describe("provider catalog", () => {
  it("has at least 20 providers with unique snake_case ids, found by id", () => {
    expect(PROVIDERS.length).toBeGreaterThanOrEqual(20);
    const ids = PROVIDERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of PROVIDERS) {
      expect(p.id).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(findProvider(p.id)).toBe(p);
    }
    expect(findProvider("nope")).toBeUndefined();
  });

  it.each(PROVIDERS.map((p) => [p.id, p] as const))("%s: catalog fields are well-formed", (_id, p) => {
    expect(p.name.trim()).not.toBe("");
    expect(p.description.length).toBeGreaterThan(20);
    expect(p.countries.length).toBeGreaterThan(0);
    for (const c of p.countries) expect(isIsoCountry(c), `country ${c}`).toBe(true);
    expect(new Set(p.countries).size).toBe(p.countries.length);
    expect(p.flowTypes.length).toBeGreaterThan(0);
    for (const f of p.flowTypes) expect(FLOW_TYPES).toContain(f);
    expect([1, 2, 3]).toContain(p.type);
    expect(p.loa.length).toBeGreaterThan(0);
    for (const l of p.loa) expect([1, 2, 3]).toContain(l);
    expect([...p.loa].sort()).toEqual(p.loa);
    if (p.defaultLoa !== 0) expect(p.loa).toContain(p.defaultLoa);
    expect(p.scopes[0]).toBe("openid");
  });

  it.each(PROVIDERS.map((p) => [p.id, p] as const))("%s: a logo file exists under public/", (_id, p) => {
    expect(p.logoUrl).toBe(`/providers/${p.id}.svg`);
    const file = path.join(publicDir, p.logoUrl);
    expect(fs.existsSync(file), file).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it("sets matchGranularity exactly on match providers", () => {
    for (const p of PROVIDERS) {
      if (p.verificationModel === "match") expect(["per_field", "aggregate"]).toContain(p.matchGranularity);
      else expect(p).not.toHaveProperty("matchGranularity");
    }
  });

  it("discloses OIDC standard claims, each reachable through one of the provider's scopes", () => {
    for (const p of PROVIDERS) {
      expect(p.claims.length).toBeGreaterThan(0);
      for (const c of p.claims) {
        expect(KNOWN_CLAIMS, `${p.id}: ${c}`).toContain(c);
        expect(
          p.scopes.some((s) => SCOPE_CLAIMS[s]?.includes(c)),
          `${p.id}: ${c} has no scope`,
        ).toBe(true);
      }
      for (const s of p.scopes) {
        expect(Object.keys(SCOPE_CLAIMS)).toContain(s);
        if (s !== "openid")
          expect(
            SCOPE_CLAIMS[s]!.some((c) => p.claims.includes(c)),
            `${p.id}: ${s}`,
          ).toBe(true);
      }
    }
  });

  it("follows the requirement rules of each activation kind", () => {
    for (const p of PROVIDERS) {
      const reqs = p.activation.requirements;
      const ids = reqs.map((r) => r.id);
      expect(new Set(ids).size, p.id).toBe(ids.length);
      for (const r of reqs) {
        expect(REQUIREMENT_TYPES).toContain(r.type);
        expect(r.label.trim()).not.toBe("");
        expect(r.description.trim()).not.toBe("");
        const free = r.type === "text" || r.type === "email" || r.type === "url";
        // example only on free-text inputs, options only on select/checkbox
        expect("example" in r, `${p.id}.${r.id} example`).toBe(free);
        if (free) expect(r.maxLength).toBeGreaterThan(0);
        if (r.type === "select") expect(r.options.length).toBeGreaterThan(1);
        if ("options" in r && r.options) {
          expect(["select", "checkbox"]).toContain(r.type);
          const values = r.options.map((o) => o.value);
          expect(new Set(values).size).toBe(values.length);
          for (const o of r.options) expect(o.description.trim()).not.toBe("");
        }
        if (r.type === "info") {
          expect(r).not.toHaveProperty("required");
          expect(r.value.trim()).not.toBe("");
        } else expect(r.required).toBe(true);
        if ("pattern" in r && r.pattern) expect(() => new RegExp(r.pattern!)).not.toThrow();
      }
      switch (p.activation.kind) {
        case "direct":
          expect(reqs).toEqual([]);
          break;
        case "registration":
          expect(reqs.length).toBeGreaterThan(0);
          expect(reqs.every((r) => r.type !== "info")).toBe(true);
          break;
        case "contract":
          expect(reqs).toHaveLength(1);
          expect(reqs[0]).toMatchObject({ id: "supportContact", type: "info" });
          break;
      }
    }
  });

  it("uses the common registration ids", () => {
    const ids = new Set(PROVIDERS.flatMap((p) => p.activation.requirements.map((r) => r.id)));
    for (const id of [
      "legalCompanyName",
      "registrationNumber",
      "serviceDescription",
      "displayName",
      "contactEmail",
      "userDataLevel",
    ]) {
      expect(ids).toContain(id);
    }
  });

  it("covers every type, flow type, model, granularity and activation kind", () => {
    const has = (pred: (p: (typeof PROVIDERS)[number]) => boolean) => PROVIDERS.some(pred);
    for (const t of [1, 2, 3])
      expect(
        has((p) => p.type === t),
        `type ${t}`,
      ).toBe(true);
    for (const f of FLOW_TYPES)
      expect(
        has((p) => p.flowTypes.includes(f)),
        f,
      ).toBe(true);
    for (const m of ["disclosure", "match"])
      expect(
        has((p) => p.verificationModel === m),
        m,
      ).toBe(true);
    for (const g of ["per_field", "aggregate"])
      expect(
        has((p) => p.matchGranularity === g),
        g,
      ).toBe(true);
    for (const k of ["direct", "registration", "contract"])
      expect(
        has((p) => p.activation.kind === k),
        k,
      ).toBe(true);
    // the spec's examples: the passport and chip IDs are direct
    expect(findProvider("passport")!.activation.kind).toBe("direct");
    expect(PROVIDERS.filter((p) => p.type === 2).every((p) => p.activation.kind === "direct")).toBe(true);
  });

  it("names a sandbox simulator and a production adapter that fits the provider", () => {
    for (const p of PROVIDERS) {
      expect(p.adapters.sandbox).toBe("simulator");
      if (p.flowTypes.includes("dc")) expect(p.adapters.production).toBe("wallet");
      if (p.verificationModel === "match") expect(p.adapters.production).toBe("match");
      else if (p.type === 2) expect(p.adapters.production).toBe("chip");
      else if (p.type === 1) expect(p.adapters.production).toBe("oidc");
      expect(p.issuer.id).not.toBe("");
      expect(p.issuer.authorityName).not.toBe("");
    }
  });

  it("lists passport countries from ISO 3166-1, every inhabited territory", () => {
    const passport = findProvider("passport")!;
    expect(passport.countries.length).toBeGreaterThan(230);
    expect(passport.countries).toEqual(expect.arrayContaining(["DE", "US", "JP", "BR", "NG"]));
    expect(passport.countries).not.toContain("AQ");
  });
});

describe("sandbox test identities", () => {
  it("have ids unique across the catalog, prefixed with the provider id", () => {
    const ids = PROVIDERS.flatMap((p) => p.testIdentities.map((t) => t.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of PROVIDERS) {
      for (const t of p.testIdentities) {
        expect(t.id.startsWith(`${p.id}-`)).toBe(true);
        expect(findTestIdentity(p, t.id)).toBe(t);
      }
    }
  });

  it.each(PROVIDERS.map((p) => [p.id, p] as const))("%s: cover every scenario", (_id, p) => {
    const scenarios = p.testIdentities.map((t) => t.scenario);
    expect(scenarios.filter((s) => s === "success")).toHaveLength(2);
    for (const s of TEST_SCENARIOS) {
      if (s === "mismatch") expect(scenarios.includes(s)).toBe(p.verificationModel === "match");
      else expect(scenarios, s).toContain(s);
    }
    for (const t of p.testIdentities) {
      // only claims the provider discloses
      for (const c of Object.keys(t.claims)) expect(p.claims).toContain(c);
      if (t.scenario === "low_loa") expect(t.loa).toBe(1);
      else expect(p.loa).toContain(t.loa);
      if (t.claims.birthdate !== undefined) expect(t.claims.birthdate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (t.claims.nationality !== undefined) expect(isIsoCountry(t.claims.nationality as string)).toBe(true);
      expect(t.description).not.toBe("");
    }
    const [a, b] = p.testIdentities.filter((t) => t.scenario === "success");
    expect(a!.claims.name ?? a!.claims.family_name).not.toEqual(b!.claims.name ?? b!.claims.family_name);
    // every success identity carries every claim the provider discloses
    expect(Object.keys(a!.claims).sort()).toEqual([...p.claims].sort());
    const missing = p.testIdentities.find((t) => t.scenario === "missing_claims")!;
    expect(p.claims.some((c) => !(c in missing.claims))).toBe(true);
  });
});
