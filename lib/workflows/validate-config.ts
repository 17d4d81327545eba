/**
 * Workflow validation, the config of each node (pure): the node type's zod schema, then the rules
 * a schema cannot say. Issues carry full paths (`nodes[2].config.claims[1]`) and the node's label.
 * Rules:
 * - required fields present, enums valid, types right, unknown fields refused (schema.ts); claims
 *   are known claim names (claims.ts);
 * - verification: provider keys are providers of the app (spec, Workspace API rule 6), checked on
 *   the raw config so they are reported even when another field is wrong, and do not opt out all
 *   of them; a claim is listed once; minimumAge exactly with age_verification mode; a branding
 *   logo is real image data (lib/apps/logo.ts);
 * - conditions (evaluate, if) only combine source, field, op and value in ways the engine can
 *   evaluate: `field` with source claim only, the ops of the source, a value of the op's shape;
 * - check-claim, check-min-loa and conditions on claims or the LoA test the verification's
 *   result: the graph checks (validate-graph.ts) require a verification before them.
 */
import type { z } from "zod";
import { checkLogoDataUrl } from "../apps/logo";
import { findProvider } from "../providers/catalog";
import type { TNodeType } from "./node-types";
import {
  CONDITION_OPS,
  MAX_AGE_LIMIT,
  MAX_IN_VALUES,
  ZCheckClaimConfig,
  ZCheckMinLoaConfig,
  ZEmptyConfig,
  ZEvaluateConfig,
  ZIfConfig,
  ZVerificationConfig,
  type TCondition,
  type TVerificationConfig,
} from "./schema";
import { joinPath, type Issues } from "./validate-issues";

/** What the config checks need to know about the app. */
export interface TValidationContext {
  /** providerId of every AppProvider row of the app */
  appProviderIds: readonly string[];
}

export const CONFIG_SCHEMAS: Record<TNodeType, z.ZodType> = {
  request: ZEmptyConfig,
  verification: ZVerificationConfig,
  "check-claim": ZCheckClaimConfig,
  "check-min-loa": ZCheckMinLoaConfig,
  evaluate: ZEvaluateConfig,
  if: ZIfConfig,
  response: ZEmptyConfig,
};

type TOp = (typeof CONDITION_OPS)[number];
const OPS_BY_SOURCE: Record<TCondition["source"], readonly TOp[]> = {
  claim: CONDITION_OPS,
  loa: ["equals", "not_equals", "in", "not_in", "gte", "lte"],
  provider: ["equals", "not_equals", "in", "not_in"],
};

/** Where a node's config is checked: its path prefix, its label for messages, the sink. */
interface TConfigSite {
  prefix: string;
  label: string;
  issues: Issues;
}

/** The config parsed by `schema`, or undefined after adding its zod issues with full paths. */
function parseConfig<S extends z.ZodType>(
  schema: S,
  config: unknown,
  site: TConfigSite,
): z.output<S> | undefined {
  const { prefix, label, issues } = site;
  const result = schema.safeParse(config, { reportInput: true });
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        issues.add(joinPath(prefix, [...issue.path, key]), `${label}: unknown field`);
      continue;
    }
    const missing = "input" in issue && issue.input === undefined;
    issues.add(joinPath(prefix, issue.path), `${label}: ${missing ? "is required" : issue.message}`);
  }
  return undefined;
}

/**
 * Checks the config of a node of type `type` and adds what is wrong. Returns whether the node
 * tests the verification's result (claims, LoA), which the graph checks need.
 */
export function checkNodeConfig(
  type: TNodeType,
  config: Record<string, unknown> | undefined,
  site: TConfigSite,
  ctx: TValidationContext,
): { testsResult: boolean } {
  const raw = config ?? {};
  switch (type) {
    case "verification": {
      const parsed = parseConfig(ZVerificationConfig, raw, site);
      checkProviderKeys(config, site, ctx);
      if (parsed) checkVerificationConfig(parsed, site);
      return { testsResult: false };
    }
    case "evaluate": {
      const parsed = parseConfig(ZEvaluateConfig, raw, site);
      parsed?.conditions.forEach((c, k) => checkCondition(c, `${site.prefix}.conditions[${k}]`, site));
      return { testsResult: (parsed?.conditions ?? []).some(testsResult) };
    }
    case "if": {
      const parsed = parseConfig(ZIfConfig, raw, site);
      if (parsed) checkCondition(parsed.condition, `${site.prefix}.condition`, site);
      return { testsResult: parsed !== undefined && testsResult(parsed.condition) };
    }
    case "check-claim":
    case "check-min-loa":
      parseConfig(CONFIG_SCHEMAS[type], raw, site);
      return { testsResult: true };
    case "request":
    case "response":
      parseConfig(CONFIG_SCHEMAS[type], raw, site);
      return { testsResult: false };
  }
}

/** A condition on claims or the LoA tests the verification's result; one on the provider does not. */
const testsResult = (c: TCondition) => c.source !== "provider";

function checkConditionValue(
  c: TCondition,
  value: unknown,
  path: string,
  { label, issues }: TConfigSite,
): void {
  if (c.source === "loa") {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 3)
      issues.add(path, `${label}: must be a level of assurance 0, 1, 2 or 3`);
  } else if (c.source === "provider") {
    if (typeof value !== "string") issues.add(path, `${label}: must be a provider id`);
    else if (!findProvider(value)) issues.add(path, `${label}: "${value}" is not a provider of the catalog`);
  } else if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    issues.add(path, `${label}: must be a string, number or boolean`);
  }
}

function checkCondition(c: TCondition, prefix: string, site: TConfigSite): void {
  const { label, issues } = site;
  if (c.source === "claim") {
    if (c.field === undefined) issues.add(`${prefix}.field`, `${label}: is required when source is claim`);
  } else if (c.field !== undefined) {
    issues.add(`${prefix}.field`, `${label}: is only used when source is claim`);
  }
  const allowed = OPS_BY_SOURCE[c.source];
  if (!allowed.includes(c.op)) {
    issues.add(
      `${prefix}.op`,
      `${label}: ${c.op} does not apply to source ${c.source}; use one of: ${allowed.join(", ")}`,
    );
    return;
  }
  const valuePath = `${prefix}.value`;
  const hasValue = c.value !== undefined;
  switch (c.op) {
    case "exists":
    case "not_exists":
      if (hasValue) issues.add(valuePath, `${label}: must be absent for ${c.op}`);
      return;
    case "equals":
    case "not_equals":
      if (!hasValue) issues.add(valuePath, `${label}: is required for ${c.op}`);
      else checkConditionValue(c, c.value, valuePath, site);
      return;
    case "in":
    case "not_in":
      if (!hasValue) issues.add(valuePath, `${label}: is required for ${c.op}`);
      else if (!Array.isArray(c.value) || c.value.length === 0 || c.value.length > MAX_IN_VALUES)
        issues.add(valuePath, `${label}: must be an array of 1–${MAX_IN_VALUES} values for ${c.op}`);
      else c.value.forEach((v, k) => checkConditionValue(c, v, `${valuePath}[${k}]`, site));
      return;
    case "gte":
    case "lte":
      if (!hasValue) issues.add(valuePath, `${label}: is required for ${c.op}`);
      else if (c.source === "loa") checkConditionValue(c, c.value, valuePath, site);
      else if (typeof c.value !== "number" && typeof c.value !== "string")
        issues.add(valuePath, `${label}: must be a number or a string for ${c.op}`);
      return;
    case "age_gte":
    case "age_lt":
      if (c.field !== undefined && c.field !== "birthdate")
        issues.add(`${prefix}.field`, `${label}: ${c.op} applies to birthdate only`);
      if (!hasValue) issues.add(valuePath, `${label}: is required for ${c.op}`);
      else if (
        typeof c.value !== "number" ||
        !Number.isInteger(c.value) ||
        c.value < 0 ||
        c.value > MAX_AGE_LIMIT
      )
        issues.add(valuePath, `${label}: must be an age in whole years, 0–${MAX_AGE_LIMIT}`);
      return;
  }
}

function checkVerificationConfig(config: TVerificationConfig, { prefix, label, issues }: TConfigSite): void {
  const seen = new Set<string>();
  config.claims.forEach((claim, k) => {
    if (seen.has(claim)) issues.add(`${prefix}.claims[${k}]`, `${label}: "${claim}" is listed twice`);
    seen.add(claim);
  });
  if (config.mode === "age_verification" && config.minimumAge === undefined)
    issues.add(`${prefix}.minimumAge`, `${label}: is required when mode is age_verification`);
  if (config.mode !== "age_verification" && config.minimumAge !== undefined)
    issues.add(`${prefix}.minimumAge`, `${label}: only applies when mode is age_verification`);
  const logo = config.branding?.logo;
  if (logo) {
    const check = checkLogoDataUrl(logo);
    if (!check.ok) issues.add(`${prefix}.branding.logo`, `${label}: ${check.message}`);
  }
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null;

/**
 * Provider keys are checked on the raw config, so a caller learns about a provider the app lacks
 * even when another field of the node is wrong too.
 */
function checkProviderKeys(
  config: Record<string, unknown> | undefined,
  { prefix, label, issues }: TConfigSite,
  ctx: TValidationContext,
): void {
  const providers = config?.providers;
  if (!isObject(providers) || Array.isArray(providers)) return;
  const appProviders = new Set(ctx.appProviderIds);
  const listed = appProviders.size > 0 ? ` (its providers: ${[...appProviders].sort().join(", ")})` : "";
  for (const key of Object.keys(providers)) {
    if (!appProviders.has(key))
      issues.add(`${prefix}.providers.${key}`, `${label}: "${key}" is not a provider of this app${listed}`);
  }
  const optedOut = new Set(
    Object.entries(providers)
      .filter(([, o]) => isObject(o) && o.enabled === false)
      .map(([id]) => id),
  );
  if (appProviders.size > 0 && [...appProviders].every((id) => optedOut.has(id)))
    issues.add(`${prefix}.providers`, `${label}: opts out every provider of the app; keep at least one`);
}
