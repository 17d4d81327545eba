/**
 * The connection form's model, generated from an adapter's settings JSON Schema
 * (GET /v1/operator/connections/schema) — never from a hand-written list of fields: what a field
 * is (text, long text for XML/PEM, number, switch, list, map, claim mapping, nested group, JSON),
 * its label, and the conversion between stored settings, the form's draft and a PUT's settings.
 * Pure: the connection page and its unit test use it.
 */

export type TJsonSchema = {
  type?: string | string[];
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  items?: TJsonSchema;
  additionalProperties?: TJsonSchema | boolean;
  enum?: unknown[];
  anyOf?: TJsonSchema[];
  oneOf?: TJsonSchema[];
  format?: string;
  maxLength?: number;
  description?: string;
  writeOnly?: boolean;
  default?: unknown;
};

export type TFieldKind =
  | { kind: "text"; multiline: boolean; format?: string; options?: string[] }
  | { kind: "number"; integer: boolean }
  | { kind: "boolean" }
  | { kind: "list" }
  | { kind: "map"; values: "text" | "number" }
  /** oidc: claimMapping (upstream claim → OIDC claim); saml: attributeMapping (attribute → claim or "sub") */
  | { kind: "claimMapping"; protocol: "oidc" | "saml" }
  | { kind: "group"; fields: TField[] }
  | { kind: "json" };

export type TField = TFieldKind & {
  /** dotted path below settings (`requestObject.signingAlg`) */
  path: string;
  name: string;
  label: string;
  description?: string;
  required: boolean;
  /** write-only: never shown, kept when left empty */
  secret: boolean;
};

export interface TMapRow {
  key: string;
  value: string;
}
/** A field's value while it is edited. */
export type TDraftValue = string | boolean | undefined | TMapRow[];
/** Field path → value while editing. */
export type TDraft = Record<string, TDraftValue>;

const WORDS: Record<string, string> = {
  id: "ID",
  url: "URL",
  uri: "URI",
  jwk: "JWK",
  jwks: "JWKS",
  xml: "XML",
  pem: "PEM",
  loa: "LoA",
  acr: "ACR",
  oidc: "OIDC",
  saml: "SAML",
  sp: "SP",
  idp: "IdP",
  vct: "VCT",
  alg: "algorithm",
  authn: "authentication",
};

/** `clientId` → "Client ID", `acrToLoa` → "ACR to LoA", `metadataXml` → "Metadata XML". */
export function labelOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_]+/)
    .filter(Boolean)
    .map((w) => WORDS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The schema's type, without "null" (an optional setting's JSON Schema may allow it). */
function typeOf(schema: TJsonSchema): string | undefined {
  const options = (schema.anyOf ?? schema.oneOf)?.filter((s) => typeOf(s) !== "null");
  if (options?.length === 1) return typeOf(options[0]!);
  if (options && options.length > 1) return undefined;
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== "null");
    return types.length === 1 ? types[0] : undefined;
  }
  if (schema.type === undefined && schema.enum?.every((v) => typeof v === "string")) return "string";
  return schema.type;
}

function unwrap(schema: TJsonSchema): TJsonSchema {
  const options = (schema.anyOf ?? schema.oneOf)?.filter((s) => typeOf(s) !== "null");
  return options?.length === 1 ? { ...options[0]!, description: schema.description } : schema;
}

const LONG_TEXT = /(xml|pem|certificate|cert)$/i;

function kindOf(name: string, raw: TJsonSchema): TFieldKind {
  const schema = unwrap(raw);
  const type = typeOf(schema);
  if (type === "string") {
    const options = schema.enum?.filter((v): v is string => typeof v === "string");
    return {
      kind: "text",
      multiline: LONG_TEXT.test(name) || (schema.maxLength ?? 0) > 2048,
      format: schema.format,
      ...(options?.length ? { options } : {}),
    };
  }
  if (type === "integer" || type === "number") return { kind: "number", integer: type === "integer" };
  if (type === "boolean") return { kind: "boolean" };
  if (type === "array" && schema.items && typeOf(schema.items) === "string" && !schema.items.enum)
    return { kind: "list" };
  if (type === "object") {
    const extra = schema.additionalProperties;
    if (schema.properties && Object.keys(schema.properties).length > 0 && !extra) {
      return { kind: "group", fields: fieldsOf(schema, [], name) };
    }
    if (!schema.properties && typeof extra === "object") {
      const valueType = typeOf(extra);
      if (valueType === "string" && name === "claimMapping")
        return { kind: "claimMapping", protocol: "oidc" };
      if (valueType === "string" && name === "attributeMapping")
        return { kind: "claimMapping", protocol: "saml" };
      if (valueType === "string") return { kind: "map", values: "text" };
      if (valueType === "integer" || valueType === "number") return { kind: "map", values: "number" };
    }
  }
  return { kind: "json" };
}

/** The form's fields of an object schema (`secrets`: top-level secret names). */
export function fieldsOf(schema: TJsonSchema, secrets: readonly string[] = [], prefix = ""): TField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    return {
      ...kindOf(path.split(".").at(-1)!, property),
      path,
      name,
      label: labelOf(name),
      description: property.description,
      required: required.has(name),
      secret: property.writeOnly === true || (!prefix && secrets.includes(name)),
    };
  });
}

function valueAt(settings: Record<string, unknown> | null | undefined, path: string): unknown {
  let node: unknown = settings ?? undefined;
  for (const part of path.split(".")) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** The draft of stored settings (secrets start empty: they are never returned). */
export function draftOf(fields: TField[], settings: Record<string, unknown> | null | undefined): TDraft {
  const draft: TDraft = {};
  for (const f of fields) {
    if (f.kind === "group") {
      Object.assign(draft, draftOf(f.fields, settings));
      continue;
    }
    const value = f.secret ? undefined : valueAt(settings, f.path);
    switch (f.kind) {
      case "boolean":
        draft[f.path] = typeof value === "boolean" ? value : undefined;
        break;
      case "number":
        draft[f.path] = typeof value === "number" ? String(value) : "";
        break;
      case "text":
        draft[f.path] = typeof value === "string" ? value : "";
        break;
      case "list":
        draft[f.path] = Array.isArray(value) ? value.map(String).join("\n") : "";
        break;
      case "map":
      case "claimMapping":
        draft[f.path] =
          value && typeof value === "object" && !Array.isArray(value)
            ? Object.entries(value).map(([key, v]) => ({ key, value: String(v) }))
            : [];
        break;
      default:
        draft[f.path] = value === undefined ? "" : JSON.stringify(value, null, 2);
    }
  }
  return draft;
}

/** A mapping's rows as the object a PUT sends (rows without a key are left out). */
export function rowsToObject(rows: TMapRow[], numbers = false): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (!key) continue;
    out[key] = numbers && row.value.trim() !== "" ? Number(row.value) : row.value.trim();
  }
  return out;
}

/** The value of one (non-group) field from the draft; undefined leaves it out. */
function fieldValue(f: TField, value: TDraftValue): { value?: unknown; error?: string } {
  switch (f.kind) {
    case "boolean":
      return { value };
    case "number": {
      const text = typeof value === "string" ? value.trim() : "";
      if (text === "") return {};
      const n = Number(text);
      if (!Number.isFinite(n) || (f.integer && !Number.isInteger(n))) return { error: "must be a number" };
      return { value: n };
    }
    case "text":
      return typeof value === "string" && value.trim() !== ""
        ? { value: f.multiline ? value : value.trim() }
        : {};
    case "list": {
      const items = (typeof value === "string" ? value : "")
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
      return items.length ? { value: items } : {};
    }
    case "map":
    case "claimMapping": {
      const rows = Array.isArray(value) ? value : [];
      const numbers = f.kind === "map" && f.values === "number";
      const bad =
        numbers && rows.find((r) => r.key.trim() && !Number.isFinite(Number(r.value.trim() || "x")));
      if (bad) return { error: `the value of ${bad.key.trim()} must be a number` };
      const object = rowsToObject(rows, numbers);
      return Object.keys(object).length ? { value: object } : {};
    }
    default: {
      const text = typeof value === "string" ? value.trim() : "";
      if (text === "") return {};
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { error: "must be JSON" };
      }
    }
  }
}

/**
 * A PUT's settings from the draft: empty values left out (a left-out secret keeps the stored one;
 * a left-out required setting is named by the API's answer; a group without values is left out).
 * `errors`: values the form cannot turn into JSON (a number that is none, JSON that does not
 * parse), by field path.
 */
export function settingsOf(
  fields: TField[],
  draft: TDraft,
): { settings: Record<string, unknown>; errors: Record<string, string> } {
  const settings: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    if (f.kind === "group") {
      const nested = settingsOf(f.fields, draft);
      Object.assign(errors, nested.errors);
      if (Object.keys(nested.settings).length) settings[f.name] = nested.settings;
      continue;
    }
    const { value, error } = fieldValue(f, draft[f.path]);
    if (error) errors[f.path] = error;
    else if (value !== undefined) settings[f.name] = value;
  }
  return { settings, errors };
}

/**
 * The details of a refused PUT that no field of the form shows (they go to the form's own error
 * line): neither `adapter`, `enabled`, nor under the path of a field or of a group's field.
 */
export function detailsNoFieldShows<T extends { path: string }>(
  fields: TField[],
  details: readonly T[],
): T[] {
  const fieldPaths = [
    ...fields.flatMap((f) => (f.kind === "group" ? [f.path, ...f.fields.map((g) => g.path)] : [f.path])),
  ];
  return details.filter(
    (d) =>
      d.path !== "adapter" &&
      d.path !== "enabled" &&
      !fieldPaths.some((p) =>
        [`settings.${p}`, `settings.${p}.`, `settings.${p}[`].some(
          (s) => d.path === s || d.path.startsWith(s),
        ),
      ),
  );
}
