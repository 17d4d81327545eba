/**
 * `idv connections export` / `idv connections import`: provider connections (issue 24) as a JSON
 * file kept beside the rest of a deployment's infrastructure code.
 * Rules:
 * - the file is `{ "version": 1, "environments": { "<env>": { "<providerId>": { adapter, enabled,
 *   settings, storedSecrets? } } } }`; an environment the file leaves out is not touched;
 * - export never writes a secret: the settings omit them and `storedSecrets` names those stored;
 * - import applies every entry through the Operator API's service (putConnection: the same checks,
 *   sealing and invalidation), audited with the CLI as actor, all in one transaction: one refused
 *   entry is reported as `<env>.<providerId>.settings.<field>` and nothing is stored;
 * - a secret in the file is a string or `{ "env": "NAME" }` (read from the environment at import);
 *   a secret the file omits keeps the stored one;
 * - an entry equal to what is stored is left alone (no write, no audit entry), so importing the
 *   same file twice changes nothing; `--prune` deletes the connections of the file's environments
 *   that the file does not list.
 */
import fs from "node:fs";
import { z } from "zod";
import { inTransaction, type Db } from "../db/kysely";
import { ENVIRONMENTS, type TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { zodDetails } from "../errors/validation";
import { findProvider, PROVIDERS } from "../providers/catalog";
import { memberParser } from "../state-machine";
import {
  checkSettings,
  CONNECTION_ADAPTERS,
  SECRET_FIELDS,
  type TConnectionAdapter,
} from "../connections/schema";
import {
  deleteConnection,
  putConnection,
  unsealSecrets,
  type TConnectionActor,
} from "../connections/service";
import { settingsObject } from "../connections/rows";
import {
  listConnectionRowsIn,
  otherProviderIds,
  readConnection,
  type TConnectionRow,
} from "../connections/store/connections";
import { CliError, parseCommandWithArguments, usageError } from "./args";
import { printResult, withDatabase } from "./runtime";
import { ZEnvironmentFlag, ZJsonFlag } from "./schemas";

const parseAdapter = memberParser(CONNECTION_ADAPTERS, "provider_connections.adapter");

const ZEntry = z
  .object({
    adapter: z.enum(CONNECTION_ADAPTERS, { error: `must be one of: ${CONNECTION_ADAPTERS.join(", ")}` }),
    enabled: z.boolean(),
    settings: z.record(z.string(), z.unknown()),
    /** written by export; on import only a hint for the message when a secret is missing */
    storedSecrets: z.array(z.string()).optional(),
  })
  .strict();
type TEntry = z.infer<typeof ZEntry>;

const ZEnvironmentConnections = z.record(z.string(), ZEntry);

export const ZConnectionsFile = z
  .object({
    version: z.literal(1, { error: "must be 1" }),
    environments: z
      .object({ sandbox: ZEnvironmentConnections.optional(), production: ZEnvironmentConnections.optional() })
      .strict(),
  })
  .strict();
export type TConnectionsFile = z.infer<typeof ZConnectionsFile>;

/** A secret given by reference: the value of an environment variable at import. */
const ZEnvReference = z.object({ env: z.string().min(1) }).strict();

/** Objects with their keys sorted, at every depth: the file is stable and compares as text. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

// ---------------------------------------------------------------------------------------------
// export

function exportEntry(row: TConnectionRow): TEntry {
  const adapter = parseAdapter(row.adapter);
  const stored = unsealSecrets(row);
  const storedSecrets = SECRET_FIELDS[adapter].filter((name) => stored[name] !== undefined);
  return {
    adapter,
    enabled: row.enabled,
    settings: settingsObject(sorted(row.settings)),
    ...(storedSecrets.length ? { storedSecrets } : {}),
  };
}

/** The connections of `envs` as the file holds them, providers in catalog order. */
export async function exportConnections(db: Db, envs: readonly TEnvironment[]): Promise<TConnectionsFile> {
  const rows = await listConnectionRowsIn(db, envs);
  const order = new Map(PROVIDERS.map((p, i) => [p.id, i]));
  const rank = (id: string) => order.get(id) ?? PROVIDERS.length;
  rows.sort((a, b) => rank(a.providerId) - rank(b.providerId) || a.providerId.localeCompare(b.providerId));
  const environments: TConnectionsFile["environments"] = {};
  for (const env of envs) {
    environments[env] = Object.fromEntries(
      rows.filter((r) => r.environment === env).map((r) => [r.providerId, exportEntry(r)]),
    );
  }
  return { version: 1, environments };
}

// ---------------------------------------------------------------------------------------------
// import

export interface TImportReport {
  created: string[];
  changed: { connection: string; fields: string[] }[];
  unchanged: string[];
  deleted: string[];
}

/** A refusal of one entry, its fields named from the environment down (`production.x.settings.issuer`). */
function refusal(where: string, error: unknown): never {
  if (!(error instanceof ApiError)) throw error;
  const problems = error.details.length
    ? error.details.map((d) => `${where}.${d.path}: ${d.message}`)
    : [`${where}: ${error.message}`];
  throw new CliError(error.code, problems.join("; "), 2);
}

/** The variables `{ "env": "NAME" }` references read: the CLI's environment. */
type TVariables = Readonly<Record<string, string | undefined>>;

/** The entry's settings with each secret reference replaced by the variable's value. */
function resolveSecrets(where: string, entry: TEntry, variables: TVariables): Record<string, unknown> {
  const settings = { ...entry.settings };
  for (const name of SECRET_FIELDS[entry.adapter]) {
    const ref = ZEnvReference.safeParse(settings[name]);
    if (!ref.success) continue;
    const value = variables[ref.data.env];
    if (value === undefined || value === "") {
      throw new CliError(
        "VALIDATION_ERROR",
        `${where}.settings.${name}: environment variable ${ref.data.env} is not set`,
        2,
      );
    }
    settings[name] = value;
  }
  return settings;
}

/** What applying the entry would change in the stored row (empty: nothing). */
function changesOf(
  before: TConnectionRow,
  adapter: TConnectionAdapter,
  enabled: boolean,
  split: { settings: Record<string, unknown>; secretsSet: string[] },
): string[] {
  const fields: string[] = [];
  if (before.adapter !== adapter) fields.push("adapter");
  if (before.enabled !== enabled) fields.push("enabled");
  const old = settingsObject(before.settings);
  for (const key of [...new Set([...Object.keys(old), ...Object.keys(split.settings)])].sort()) {
    if (!same(old[key], split.settings[key])) fields.push(`settings.${key}`);
  }
  for (const name of split.secretsSet) fields.push(`settings.${name}`);
  return fields;
}

async function importEntry(
  tx: Db,
  env: TEnvironment,
  providerId: string,
  entry: TEntry,
  report: TImportReport,
  variables: TVariables,
): Promise<void> {
  const where = `${env}.${providerId}`;
  if (!findProvider(providerId)) {
    throw new CliError("VALIDATION_ERROR", `${where}: not a provider of the catalog`, 2);
  }
  const settings = resolveSecrets(where, entry, variables);
  const before = await readConnection(tx, env, providerId);
  const kept = before && before.adapter === entry.adapter ? unsealSecrets(before) : {};
  // a secret equal to the stored one is no rotation (a JSON secret, a private JWK, is stored as its text)
  for (const name of SECRET_FIELDS[entry.adapter]) {
    const value = settings[name];
    if (value === undefined) continue;
    if ((typeof value === "string" ? value : JSON.stringify(value)) === kept[name]) delete settings[name];
  }
  let split: ReturnType<typeof checkSettings>;
  try {
    split = checkSettings(entry.adapter, settings, kept);
  } catch (error) {
    const missing = SECRET_FIELDS[entry.adapter].find(
      (name) =>
        entry.storedSecrets?.includes(name) && kept[name] === undefined && settings[name] === undefined,
    );
    if (missing) {
      throw new CliError(
        "VALIDATION_ERROR",
        `${where}.settings.${missing}: the file says it is stored, but this database has none: ` +
          `give it in the file as { "env": "VARIABLE" }`,
        2,
      );
    }
    refusal(where, error);
  }
  const fields = before ? changesOf(before, entry.adapter, entry.enabled, split) : [];
  if (before && fields.length === 0) {
    report.unchanged.push(where);
    return;
  }
  const actor: TConnectionActor = { cli: true, env };
  try {
    await putConnection(tx, actor, providerId, { adapter: entry.adapter, enabled: entry.enabled, settings });
  } catch (error) {
    refusal(where, error);
  }
  if (before) report.changed.push({ connection: where, fields });
  else report.created.push(where);
}

/**
 * Applies the file in one transaction (the caller's): every entry, then the prune. `variables`
 * resolve the secrets given as `{ "env": "NAME" }`.
 */
export async function importConnections(
  tx: Db,
  file: TConnectionsFile,
  { prune = false, variables = {} }: { prune?: boolean; variables?: TVariables } = {},
): Promise<TImportReport> {
  const report: TImportReport = { created: [], changed: [], unchanged: [], deleted: [] };
  for (const env of ENVIRONMENTS) {
    const entries = file.environments[env];
    if (!entries) continue;
    for (const [providerId, entry] of Object.entries(entries)) {
      await importEntry(tx, env, providerId, entry, report, variables);
    }
    if (!prune) continue;
    const stale = await otherProviderIds(tx, env, Object.keys(entries));
    for (const providerId of stale) {
      await deleteConnection(tx, { cli: true, env }, providerId);
      report.deleted.push(`${env}.${providerId}`);
    }
  }
  return report;
}

/** Reads and checks the file's shape; a refusal names the place in the file. */
export function readConnectionsFile(path: string): TConnectionsFile {
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    throw new CliError("FILE_UNREADABLE", `cannot read ${path} (${code})`, 2);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError("VALIDATION_ERROR", `${path} is not JSON: ${(error as Error).message}`, 2);
  }
  const parsed = ZConnectionsFile.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems = zodDetails(parsed.error).map(
    (d) => `${d.path.replace(/^environments\./, "")}: ${d.message}`,
  );
  throw new CliError("VALIDATION_ERROR", problems.join("; "), 2);
}

// ---------------------------------------------------------------------------------------------
// the commands

const ZExportFlags = z.object({ env: ZEnvironmentFlag.optional(), json: ZJsonFlag });
const ZImportFlags = z.object({ prune: z.boolean().default(false), json: ZJsonFlag });

async function runExport(args: string[]): Promise<number> {
  const { flags, positionals } = parseCommandWithArguments(args, ZExportFlags, ["json"], 1);
  const target = positionals[0];
  const envs = flags.env ? [flags.env] : [...ENVIRONMENTS];
  const file = await withDatabase((db) => exportConnections(db, envs));
  const text = `${JSON.stringify(file, null, 2)}\n`;
  if (target === undefined) {
    process.stdout.write(text);
    return 0;
  }
  fs.writeFileSync(target, text);
  const count = Object.values(file.environments).reduce((n, e) => n + Object.keys(e ?? {}).length, 0);
  printResult(flags.json, { file: target, connections: count }, [
    `Exported ${count} connection${count === 1 ? "" : "s"} (${envs.join(", ")}) to ${target}; secrets are not in it.`,
  ]);
  return 0;
}

async function runImport(args: string[]): Promise<number> {
  const { flags, positionals } = parseCommandWithArguments(args, ZImportFlags, ["json", "prune"], 1);
  const source = positionals[0];
  if (source === undefined) throw usageError("idv connections import needs the FILE to import");
  const file = readConnectionsFile(source);
  // not the service's configuration: variables the operator's file names, read once here
  // eslint-disable-next-line no-restricted-properties -- secret references of the imported file
  const variables = process.env;
  const report = await withDatabase((db) =>
    inTransaction(db, (tx) => importConnections(tx, file, { prune: flags.prune, variables })),
  );
  const lines = [
    ...report.created.map((c) => `created    ${c}`),
    ...report.changed.map((c) => `changed    ${c.connection} (${c.fields.join(", ")})`),
    ...report.unchanged.map((c) => `unchanged  ${c}`),
    ...report.deleted.map((c) => `deleted    ${c}`),
    `Imported ${source}: ${report.created.length} created, ${report.changed.length} changed, ` +
      `${report.unchanged.length} unchanged, ${report.deleted.length} deleted.`,
  ];
  printResult(flags.json, report, lines);
  return 0;
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "export") return runExport(rest);
  if (sub === "import") return runImport(rest);
  const got = sub === undefined || sub.startsWith("-") ? "idv connections" : `idv connections ${sub}`;
  throw usageError(
    `unknown command "${got}"; did you mean "idv connections export" or "idv connections import"?`,
  );
}
