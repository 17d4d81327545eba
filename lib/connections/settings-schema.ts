/**
 * The settings schema of each production adapter as JSON Schema (issue 24 §1): what
 * `GET /v1/operator/connections/schema` answers and the back-office generates its connection
 * form from. Pure: no database.
 * Rules:
 * - generated from the very zod schema a PUT's settings are checked with (`settingsInputSchema`,
 *   secrets optional), with zod's `z.toJSONSchema` on its input side, so the form never drifts
 *   from what the API accepts;
 * - secrets are marked `writeOnly: true` (a form shows them as "Set" / "Replace", never their
 *   value) and listed in `secrets`;
 * - a check JSON Schema cannot express (a refinement) is left out of the document: the API's
 *   answer to the PUT still decides, naming the field.
 */
import { z } from "zod";
import { CONNECTION_ADAPTERS, SECRET_FIELDS, settingsInputSchema, type TConnectionAdapter } from "./schema";

const ADAPTER_TITLES: Record<string, string> = {
  oidc: "OpenID Connect",
  saml: "SAML 2.0",
  wallet: "Digital Credentials (wallet)",
};

export const ZConnectionSettingsSchemaJson = z.object({
  adapter: z.enum(CONNECTION_ADAPTERS),
  title: z.string().describe("The adapter's name for people"),
  secrets: z.array(z.string()).describe("The settings that are secrets (write-only, never returned)"),
  schema: z
    .record(z.string(), z.unknown())
    .describe(
      "JSON Schema (draft 2020-12) of the adapter's settings as a PUT sends them; secrets carry `writeOnly: true`",
    ),
});
export type TConnectionSettingsSchemaJson = z.infer<typeof ZConnectionSettingsSchemaJson>;

export const ZConnectionSchemasJson = z.object({
  adapters: z.array(ZConnectionSettingsSchemaJson).describe("Every production adapter, in a fixed order"),
});
export type TConnectionSchemasJson = z.infer<typeof ZConnectionSchemasJson>;

type TJsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> };

/** The JSON Schema of `adapter`'s settings input, its secrets marked write-only. */
export function adapterSettingsJsonSchema(adapter: TConnectionAdapter): TJsonSchema {
  const schema = z.toJSONSchema(settingsInputSchema(adapter), {
    io: "input",
    // a refinement or transform has no JSON Schema: the API checks it and names the field
    unrepresentable: "any",
  }) as TJsonSchema;
  for (const name of SECRET_FIELDS[adapter]) {
    const property = schema.properties?.[name];
    if (property) schema.properties![name] = { ...property, writeOnly: true };
  }
  // a stored secret is kept when the PUT omits it: never required in the form
  if (Array.isArray(schema.required)) {
    schema.required = (schema.required as string[]).filter((n) => !SECRET_FIELDS[adapter].includes(n));
  }
  return schema;
}

/** Every adapter's settings schema, in CONNECTION_ADAPTERS order. */
export function connectionSettingsSchemas(): TConnectionSchemasJson {
  return {
    adapters: CONNECTION_ADAPTERS.map((adapter) => ({
      adapter,
      title: ADAPTER_TITLES[adapter] ?? adapter,
      secrets: [...SECRET_FIELDS[adapter]],
      schema: adapterSettingsJsonSchema(adapter),
    })),
  };
}
