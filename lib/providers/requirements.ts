/**
 * Activation requirements: what an app must submit to activate a provider, and how submitted
 * values are checked.
 * Rules:
 * - direct providers have no requirements and take an empty object;
 * - registration providers list inputs (text, email, url, checkbox, select), all required;
 *   `example` only on free-text inputs (text, email, url); `options` only on select and checkbox;
 * - contract providers have one synthetic `info` entry, `supportContact`, whose `value` says whom
 *   to contact; it takes no value and has no `required`;
 * - values: text/email/url are strings (trimmed, non-empty, at most `maxLength`), email and url
 *   must be well-formed (url: absolute http/https); a checkbox without options is a boolean and a
 *   required one must be true (a consent); a checkbox with options is an array of distinct option
 *   values, at least one when required; a select is one of its option values; `pattern` is a hint
 *   for forms and never enforced; unknown requirement ids are refused;
 * - inputs marked `companyInfo` describe the company, not the provider, and are remembered on the
 *   app to prefill later forms.
 */
import { z } from "zod";
import type { ErrorDetail } from "../errors";
import { jsonParser } from "../state-machine";

export const REQUIREMENT_TYPES = ["text", "email", "url", "checkbox", "select", "info"] as const;
export type TRequirementType = (typeof REQUIREMENT_TYPES)[number];

export interface TRequirementOption {
  value: string;
  description: string;
}

interface TRequirementBase {
  id: string;
  label: string;
  description: string;
}

export interface TFreeTextRequirement extends TRequirementBase {
  type: "text" | "email" | "url";
  required: true;
  example: string;
  maxLength: number;
  /** advisory regular expression for forms; never enforced */
  pattern?: string;
  /** remembered in App.companyInfo and used to prefill other providers' forms */
  companyInfo?: boolean;
}

export interface TCheckboxRequirement extends TRequirementBase {
  type: "checkbox";
  required: true;
  /** with options the value is an array of option values, without it a boolean */
  options?: TRequirementOption[];
}

export interface TSelectRequirement extends TRequirementBase {
  type: "select";
  required: true;
  options: TRequirementOption[];
}

export interface TInfoRequirement extends TRequirementBase {
  type: "info";
  value: string;
}

export type TInputRequirement = TFreeTextRequirement | TCheckboxRequirement | TSelectRequirement;
export type TRequirement = TInputRequirement | TInfoRequirement;
export type TRequirementValue = string | boolean | string[];

/** Requirement id → value, as submitted (and stored on the ticket, `activation_tickets.submitted`). */
export const ZRequirementValues = z.record(
  z.string(),
  z.union([z.string(), z.boolean(), z.array(z.string())]),
);
/** `activation_tickets.submitted` as read from its row. */
export const parseSubmittedValues = jsonParser(ZRequirementValues, "activation_tickets.submitted");
/** `apps.company_info` (requirement id → the company information last submitted) as read from its row. */
export const parseCompanyInfo = jsonParser(z.record(z.string(), z.string()), "apps.company_info");

export type TActivationKind = "direct" | "registration" | "contract";

export type TActivationSpec =
  | { kind: "direct"; requirements: [] }
  | { kind: "registration"; requirements: TInputRequirement[] }
  | { kind: "contract"; requirements: [TInfoRequirement] };

/** The address integrators write to for contract providers (activated off-API). */
export const SUPPORT_CONTACT = "partners@idv-broker.example";

// ---- building blocks of the catalog -------------------------------------------------------

export const requirement = {
  legalCompanyName: (): TFreeTextRequirement => ({
    id: "legalCompanyName",
    type: "text",
    label: "Legal company name",
    description: "The registered name of the company that operates the service, as in the trade register.",
    example: "Example Shop GmbH",
    required: true,
    maxLength: 200,
    companyInfo: true,
  }),
  registrationNumber: (): TFreeTextRequirement => ({
    id: "registrationNumber",
    type: "text",
    label: "Company registration number",
    description: "The company's number in its national trade or company register.",
    example: "HRB 123456",
    required: true,
    maxLength: 64,
    pattern: "^[A-Za-z0-9][A-Za-z0-9 ./-]*$",
    companyInfo: true,
  }),
  serviceDescription: (): TFreeTextRequirement => ({
    id: "serviceDescription",
    type: "text",
    label: "Service description",
    description: "What end-users do in your service and why you need to verify their identity.",
    example: "Online account opening for a regulated investment platform (AML identification).",
    required: true,
    maxLength: 1000,
    companyInfo: true,
  }),
  displayName: (): TFreeTextRequirement => ({
    id: "displayName",
    type: "text",
    label: "Display name",
    description: "The name end-users see in the provider's consent screen or app.",
    example: "Example Shop",
    required: true,
    maxLength: 60,
    companyInfo: true,
  }),
  contactEmail: (): TFreeTextRequirement => ({
    id: "contactEmail",
    type: "email",
    label: "Contact email",
    description: "Where the provider and our review team reach the person responsible for this integration.",
    example: "compliance@example.com",
    required: true,
    maxLength: 254,
    companyInfo: true,
  }),
  privacyPolicyUrl: (): TFreeTextRequirement => ({
    id: "privacyPolicyUrl",
    type: "url",
    label: "Privacy policy URL",
    description: "The public page that explains how you process the identity data you receive.",
    example: "https://example.com/privacy",
    required: true,
    maxLength: 2048,
    pattern: "^https://",
    companyInfo: true,
  }),
  userDataLevel: (options: TRequirementOption[] = DATA_LEVELS): TSelectRequirement => ({
    id: "userDataLevel",
    type: "select",
    label: "User data level",
    description: "Which set of personal attributes the provider releases to your service.",
    required: true,
    options,
  }),
  dataPurposes: (): TCheckboxRequirement => ({
    id: "dataPurposes",
    type: "checkbox",
    label: "Purposes of processing",
    description: "Every purpose for which you request identity data (the provider shows them to the user).",
    required: true,
    options: [
      { value: "identification", description: "Identify the customer (e.g. AML/KYC onboarding)" },
      { value: "age_verification", description: "Check a minimum age" },
      { value: "signing", description: "Bind a signature or contract to the person" },
      { value: "account_recovery", description: "Recover access to an existing account" },
    ],
  }),
  termsAccepted: (provider: string): TCheckboxRequirement => ({
    id: "termsAccepted",
    type: "checkbox",
    label: "Accept the terms of use",
    description: `I accept the ${provider} terms of use for relying parties on behalf of the company.`,
    required: true,
  }),
  supportContact: (provider: string): TInfoRequirement => ({
    id: "supportContact",
    type: "info",
    label: "Contact us to activate",
    description: `${provider} is activated after a contract with the scheme is signed outside the API. Write to this address; in the sandbox, submit with "demo": true to try it at once.`,
    value: SUPPORT_CONTACT,
  }),
};

const DATA_LEVELS: TRequirementOption[] = [
  { value: "basic", description: "Name and date of birth" },
  { value: "standard", description: "Name, date of birth, nationality and address" },
  { value: "extended", description: "Everything the provider can release, including contact details" },
];

/** The usual registration form: the company, the service, a contact and the data level. */
export function registrationForm(...extra: TInputRequirement[]): TInputRequirement[] {
  return [
    requirement.legalCompanyName(),
    requirement.registrationNumber(),
    requirement.serviceDescription(),
    requirement.displayName(),
    requirement.contactEmail(),
    requirement.userDataLevel(),
    ...extra,
  ];
}

// ---- checking values ------------------------------------------------------------------------

export function isInputRequirement(r: TRequirement): r is TInputRequirement {
  return r.type !== "info";
}

// Deliberately simple: one @, a dot in the domain, no spaces. The provider confirms the address.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checks one value; returns the normalised value or a message. */
export function checkRequirementValue(
  r: TInputRequirement,
  value: unknown,
): { ok: true; value: TRequirementValue } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message });
  if (value === undefined || value === null) return fail("Required");
  switch (r.type) {
    case "text":
    case "email":
    case "url": {
      if (typeof value !== "string") return fail("must be a string");
      const text = value.trim();
      if (text === "") return fail("must not be empty");
      if (text.length > r.maxLength) return fail(`must be at most ${r.maxLength} characters`);
      if (r.type === "email" && !EMAIL.test(text)) return fail("must be an email address");
      if (r.type === "url") {
        let url: URL;
        try {
          url = new URL(text);
        } catch {
          return fail("must be an absolute URL");
        }
        if (url.protocol !== "https:" && url.protocol !== "http:") return fail("must use https or http");
      }
      return { ok: true, value: text };
    }
    case "checkbox": {
      if (!r.options) {
        if (typeof value !== "boolean") return fail("must be a boolean");
        if (r.required && value !== true) return fail("must be true (checked)");
        return { ok: true, value };
      }
      const allowed = r.options.map((o) => o.value);
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
        return fail(`must be an array of option values (${allowed.join(", ")})`);
      const picked = value as string[];
      const unknown = picked.find((v) => !allowed.includes(v));
      if (unknown !== undefined) return fail(`"${unknown}" is not one of: ${allowed.join(", ")}`);
      if (new Set(picked).size !== picked.length) return fail("must not repeat a value");
      if (r.required && picked.length === 0) return fail("must select at least one option");
      return { ok: true, value: [...picked] };
    }
    case "select": {
      const allowed = r.options.map((o) => o.value);
      if (typeof value !== "string" || !allowed.includes(value))
        return fail(`must be one of: ${allowed.join(", ")}`);
      return { ok: true, value };
    }
  }
}

/**
 * Checks a submitted object against `requirements`. Details name `${prefix}.${requirementId}`;
 * `values` holds the normalised values of the inputs that passed.
 */
export function checkRequirementValues(
  requirements: readonly TRequirement[],
  input: Record<string, unknown>,
  prefix: string,
): { values: Record<string, TRequirementValue>; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const values: Record<string, TRequirementValue> = {};
  const byId = new Map(requirements.map((r) => [r.id, r]));
  const inputs = requirements.filter(isInputRequirement);
  for (const key of Object.keys(input)) {
    const r = byId.get(key);
    if (!r) {
      const expected = inputs.length
        ? `expected: ${inputs.map((i) => i.id).join(", ")}`
        : "this provider takes an empty object";
      details.push({ path: `${prefix}.${key}`, message: `Unknown requirement; ${expected}` });
    } else if (r.type === "info") {
      details.push({ path: `${prefix}.${key}`, message: "is informational and takes no value" });
    }
  }
  for (const r of inputs) {
    const result = checkRequirementValue(r, input[r.id]);
    if (result.ok) values[r.id] = result.value;
    else details.push({ path: `${prefix}.${r.id}`, message: result.message });
  }
  return { values, details };
}

/**
 * A stored configuration needs action when it no longer satisfies the provider's current
 * requirements (a value missing or malformed, e.g. after the requirements changed). Keys no
 * longer required are ignored.
 */
export function configNeedsAction(requirements: readonly TRequirement[], config: unknown): boolean {
  if (typeof config !== "object" || config === null || Array.isArray(config)) return true;
  const stored = config as Record<string, unknown>;
  return requirements.filter(isInputRequirement).some((r) => !checkRequirementValue(r, stored[r.id]).ok);
}

/** Whether `r` is company information (remembered on the app, prefilled into other forms). */
export function isCompanyInfo(r: TRequirement): r is TFreeTextRequirement {
  return (r.type === "text" || r.type === "email" || r.type === "url") && r.companyInfo === true;
}
