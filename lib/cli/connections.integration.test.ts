/**
 * `idv connections export` / `import` as an operator runs them: `node bin/idv.mjs …` in a child
 * process, each against a database of its own (connections are deployment-wide, so the shared
 * test database, where other files connect providers, cannot be "empty"): `source` and `target`
 * are fresh databases with every migration applied, checked through SQL.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptSecret } from "../crypto/encryption";
import { migrateDatabase } from "../db/database";

const root = path.resolve(import.meta.dirname, "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "idv-connections-"));
const OIDC = "fr_franceconnect";
const WALLET = "eudi_wallet";

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function idv(databaseUrl: string, env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, "bin", "idv.mjs"), ...args],
      {
        cwd: root,
        timeout: 25_000,
        env: {
          ...process.env,
          ...env,
          DATABASE_URL: databaseUrl,
          IDV_MASTER_KEY: process.env.IDV_MASTER_KEY ?? "test-master-key-0123456789abcdef",
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const databases: string[] = [];
const admin = new URL(process.env.DATABASE_URL!);
admin.pathname = "/postgres";

function urlOf(database: string): string {
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function query<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

let template = "";
let counter = 0;

/** A fresh, migrated database with no connections (a copy of this file's migrated template). */
async function freshDatabase(): Promise<string> {
  const name = `${template}_${++counter}`;
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  databases.push(name);
  return urlOf(name);
}

beforeAll(async () => {
  template = `idv_cli_conn_${process.pid}`;
  await adminQuery(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE "${template}"`);
  databases.push(template);
  await migrateDatabase(urlOf(template), { quiet: true });
}, 120_000);

afterAll(async () => {
  for (const name of databases.reverse()) {
    await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeFile(name: string, content: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

const JWKS = {
  keys: [
    {
      kty: "EC",
      crv: "P-256",
      x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
      y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    },
  ],
};

/** A file as an operator writes it: the secret by reference. */
const SOURCE = {
  version: 1,
  environments: {
    production: {
      [OIDC]: {
        adapter: "oidc",
        enabled: true,
        settings: {
          issuer: "https://fc.example.test",
          clientId: "broker",
          clientSecret: { env: "FC_SECRET" },
          scopes: ["openid", "given_name"],
          // a claim of the same name on both sides: valid whichever way the mapping reads
          claimMapping: { given_name: "given_name", family_name: "family_name" },
          acrToLoa: { eidas2: 2, eidas1: 1 },
        },
      },
      [WALLET]: {
        adapter: "wallet",
        enabled: false,
        settings: { issuers: { "https://pid.example.test": JWKS }, vct: ["urn:eu.europa.ec.eudi:pid:1"] },
      },
    },
  },
};

interface ConnectionRow {
  provider_id: string;
  environment: string;
  secrets_encrypted: string | null;
  updated_at: Date;
}

const connections = (url: string) =>
  query<ConnectionRow>(
    url,
    "SELECT provider_id, environment::text, secrets_encrypted, updated_at FROM provider_connections ORDER BY provider_id",
  );
const cliAudits = (url: string) =>
  query<{ action: string; data: { changed?: string[] } }>(
    url,
    "SELECT action, data FROM audit_events WHERE actor_type = 'cli' AND action LIKE 'connection.%' ORDER BY created_at, id",
  );

describe("idv connections export / import", () => {
  it("round-trips: export, import into an empty database, export again gives the same file", async () => {
    const source = await freshDatabase();
    const target = await freshDatabase();
    const sourceFile = writeFile("source.json", SOURCE);

    const first = await idv(source, { FC_SECRET: "secret-one" }, "connections", "import", sourceFile);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`created    production.${OIDC}`);
    expect(first.stdout).toContain(`created    production.${WALLET}`);
    expect(first.stdout).toMatch(/2 created, 0 changed, 0 unchanged, 0 deleted/);
    // the secret of the variable is stored (sealed), the audit names the CLI and never the value
    const rows = await connections(source);
    expect(rows.map((r) => r.provider_id)).toEqual([WALLET, OIDC].sort());
    const oidcRow = rows.find((r) => r.provider_id === OIDC)!;
    expect(JSON.parse(decryptSecret(oidcRow.secrets_encrypted!))).toEqual({ clientSecret: "secret-one" });
    const audits = await cliAudits(source);
    expect(audits.map((a) => a.action)).toEqual(["connection.created", "connection.created"]);
    expect(JSON.stringify(audits)).not.toContain("secret-one");

    const exportedFile = path.join(dir, "exported.json");
    const exported = await idv(source, {}, "connections", "export", exportedFile);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/Exported 2 connections \(sandbox, production\)/);
    const text = fs.readFileSync(exportedFile, "utf8");
    expect(text).not.toContain("secret-one");
    const file = JSON.parse(text) as {
      version: number;
      environments: {
        sandbox: object;
        production: Record<string, { storedSecrets?: string[]; settings: Record<string, unknown> }>;
      };
    };
    expect(file.environments.sandbox).toEqual({});
    expect(file.environments.production[OIDC]!.storedSecrets).toEqual(["clientSecret"]);
    expect(file.environments.production[OIDC]!.settings).not.toHaveProperty("clientSecret");
    // objects are written with their keys sorted, at every depth
    expect(Object.keys(file.environments.production[OIDC]!.settings.acrToLoa as object)).toEqual([
      "eidas1",
      "eidas2",
    ]);
    expect(file.environments.production[WALLET]).toEqual({ ...SOURCE.environments.production[WALLET] });

    // the exported file, as is, into an empty database: the secret is missing, nothing is stored
    const missing = await idv(target, {}, "connections", "import", exportedFile);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toContain(`production.${OIDC}.settings.clientSecret`);
    expect(await connections(target)).toEqual([]);

    // with the secret given by reference, the target ends up as the source: same export
    file.environments.production[OIDC]!.settings.clientSecret = { env: "FC_SECRET" };
    const withSecret = writeFile("with-secret.json", file);
    const imported = await idv(target, { FC_SECRET: "secret-one" }, "connections", "import", withSecret);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/2 created/);
    const again = await idv(target, {}, "connections", "export");
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(text);
  });

  it("a second import of the same file changes nothing: no write, no audit entry", async () => {
    const db = await freshDatabase();
    const sourceFile = writeFile("twice.json", SOURCE);
    const first = await idv(db, { FC_SECRET: "secret-one" }, "connections", "import", sourceFile);
    expect(first.code).toBe(0);
    const rowsBefore = await connections(db);
    const auditsBefore = await cliAudits(db);

    const [second, exported] = [
      await idv(db, { FC_SECRET: "secret-one" }, "connections", "import", sourceFile, "--json"),
      await idv(db, {}, "connections", "export", "--env", "production"),
    ];
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({
      created: [],
      changed: [],
      unchanged: [`production.${OIDC}`, `production.${WALLET}`],
      deleted: [],
    });
    // the exported file (secret omitted: the stored one is kept) is no change either
    const exportedFile = writeFile("twice-exported.json", exported.stdout);
    const third = await idv(db, {}, "connections", "import", exportedFile);
    expect(third.code).toBe(0);
    expect(third.stdout).toMatch(/0 created, 0 changed, 2 unchanged/);
    expect(await connections(db)).toEqual(rowsBefore);
    expect(await cliAudits(db)).toEqual(auditsBefore);

    // a rotated secret and a changed setting are changes, audited by name only
    const rotated = structuredClone(SOURCE);
    rotated.environments.production[OIDC].settings.scopes = ["openid"];
    const rotatedFile = writeFile("rotated.json", rotated);
    const fourth = await idv(db, { FC_SECRET: "secret-two" }, "connections", "import", rotatedFile);
    expect(fourth.code).toBe(0);
    expect(fourth.stdout).toContain(`changed    production.${OIDC} (settings.scopes, settings.clientSecret)`);
    expect(fourth.stdout).toContain(`unchanged  production.${WALLET}`);
    const audits = await cliAudits(db);
    expect(audits).toHaveLength(auditsBefore.length + 1);
    expect(audits.at(-1)).toMatchObject({ action: "connection.updated" });
    expect(audits.at(-1)!.data.changed).toEqual(["settings.scopes", "settings.clientSecret"]);
    const oidcRow = (await connections(db)).find((r) => r.provider_id === OIDC)!;
    expect(JSON.parse(decryptSecret(oidcRow.secrets_encrypted!))).toEqual({ clientSecret: "secret-two" });
  });

  it("a refused entry stores nothing and names the field from the environment down", async () => {
    const db = await freshDatabase();
    const bad = structuredClone(SOURCE) as { environments: { production: Record<string, unknown> } };
    // the wallet entry comes first and is fine; the oidc one is refused
    bad.environments.production = {
      [WALLET]: SOURCE.environments.production[WALLET],
      [OIDC]: {
        ...SOURCE.environments.production[OIDC],
        settings: { ...SOURCE.environments.production[OIDC].settings, issuer: "http://fc.example.test" },
      },
    };
    const [refused, unset, unknownProvider, badShape] = await Promise.all([
      idv(db, { FC_SECRET: "secret-one" }, "connections", "import", writeFile("bad.json", bad)),
      idv(db, {}, "connections", "import", writeFile("unset.json", SOURCE)),
      idv(
        db,
        {},
        "connections",
        "import",
        writeFile("unknown.json", {
          version: 1,
          environments: { production: { nope: SOURCE.environments.production[WALLET] } },
        }),
      ),
      idv(
        db,
        {},
        "connections",
        "import",
        writeFile("shape.json", {
          version: 1,
          environments: { production: { [WALLET]: { adapter: "ftp" } } },
        }),
        "--json",
      ),
    ]);
    for (const res of [refused, unset, unknownProvider, badShape]) {
      expect(res.code).toBe(2);
      expect(res.stdout).toBe("");
    }
    expect(refused.stderr).toContain(`production.${OIDC}.settings.issuer: must use https`);
    expect(unset.stderr).toContain(
      `production.${OIDC}.settings.clientSecret: environment variable FC_SECRET is not set`,
    );
    expect(unknownProvider.stderr).toContain("production.nope: not a provider of the catalog");
    const shape = JSON.parse(badShape.stderr) as { error: { code: string; message: string } };
    expect(shape.error.code).toBe("VALIDATION_ERROR");
    expect(shape.error.message).toContain(`production.${WALLET}.adapter`);
    expect(shape.error.message).toContain(`production.${WALLET}.enabled: Required`);
    expect(await connections(db)).toEqual([]);
    expect(await cliAudits(db)).toEqual([]);
  });

  it("--prune deletes the connections of the file's environments that it does not list, and only then", async () => {
    const db = await freshDatabase();
    expect(
      (await idv(db, { FC_SECRET: "s" }, "connections", "import", writeFile("all.json", SOURCE))).code,
    ).toBe(0);
    const onlyWallet = writeFile("only-wallet.json", {
      version: 1,
      environments: { production: { [WALLET]: SOURCE.environments.production[WALLET] } },
    });
    const kept = await idv(db, {}, "connections", "import", onlyWallet);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/0 deleted/);
    expect((await connections(db)).map((r) => r.provider_id)).toContain(OIDC);
    // an environment the file leaves out is not pruned
    const sandboxOnly = writeFile("sandbox-only.json", { version: 1, environments: { sandbox: {} } });
    expect((await idv(db, {}, "connections", "import", sandboxOnly, "--prune")).code).toBe(0);
    expect(await connections(db)).toHaveLength(2);

    const pruned = await idv(db, {}, "connections", "import", onlyWallet, "--prune");
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain(`deleted    production.${OIDC}`);
    expect((await connections(db)).map((r) => r.provider_id)).toEqual([WALLET]);
    expect((await cliAudits(db)).at(-1)).toMatchObject({ action: "connection.deleted" });
  });

  it("refuses usage errors before touching a database", async () => {
    const db = await freshDatabase();
    const [noFile, twoFiles, badEnv, unknownSub] = await Promise.all([
      idv(db, {}, "connections", "import"),
      idv(db, {}, "connections", "export", "a.json", "b.json"),
      idv(db, {}, "connections", "export", "--env", "staging"),
      idv(db, {}, "connections", "sync"),
    ]);
    for (const res of [noFile, twoFiles, badEnv, unknownSub]) expect(res.code).toBe(2);
    expect(noFile.stderr).toMatch(/needs the FILE/);
    expect(twoFiles.stderr).toMatch(/unexpected argument/);
    expect(badEnv.stderr).toMatch(/--env must be sandbox or production/);
    expect(unknownSub.stderr).toMatch(/idv connections export/);
  });
});
