/**
 * Entry of the `idv` command (bin/idv.mjs): dispatches to one module per command group and
 * turns every failure into one message and an exit code.
 * Rules: exit 0 on success, 2 on a usage or input error (nothing was done; a bad environment
 * variable is CONFIG_INVALID, found before any command runs), 1 on a failure
 * while doing the work. With --json, errors go to stderr as {"error":{"code","message"}};
 * otherwise as `error: …`. Messages never contain passwords or database credentials.
 */
import { config, ConfigError } from "../config";
import { isDatabaseUnavailable } from "../http/unavailable";
import { CliError, usageError } from "./args";

export const USAGE = `Usage: idv <command> [options]

Commands:
  serve [--dev] [--port N]
      Run the service (Next.js) on the configured database, applying migrations first.
      --dev also seeds a demo workspace and prints its sign-in and sandbox key.

  workspace create --name N --email E --password P [--json]
      Create a workspace owned by E (created, or an existing user whose password matches)
      and print one sandbox and one production API key.

  operator create --email E --password P [--json]
      Create an operator user (or upgrade an existing user whose password matches) and print
      a new operator key for the back-office API.

  keys create --workspace W --env sandbox|production [--name N] [--json]
      Create another workspace API key for one environment.

  connections export [--env sandbox|production] [FILE] [--json]
      Write the provider connections (both environments, or --env's) as JSON to FILE, or to
      stdout. Secrets are never written: each entry's storedSecrets names those stored.

  connections import FILE [--prune] [--json]
      Apply a connections file in one transaction (all or nothing): creates and changes
      connections, leaves equal ones alone (a second import changes nothing). A secret is a
      string or {"env": "NAME"} (read from the environment); omitted, the stored one is kept.
      --prune deletes the connections of the file's environments that it does not list.

  db migrate [--json]
      Apply pending database migrations.

  help
      Show this text.

Options:
  --json   print the result as one JSON object on stdout (errors as JSON on stderr)

The database is DATABASE_URL when set, else the embedded PostgreSQL under .data/.
Names are 1-100 characters; passwords at least 8. Exit codes: 0 ok, 1 failed, 2 bad usage.
`;

interface CommandModule {
  run(args: string[]): Promise<number>;
}

// loaded on demand, so `idv help` and usage errors do not load the database client
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  serve: () => import("./serve"),
  workspace: () => import("./workspace"),
  operator: () => import("./operator"),
  keys: () => import("./keys"),
  db: () => import("./db"),
  connections: () => import("./connections"),
};

/** Replaces the password of DATABASE_URL wherever a driver message repeats it. */
function redact(message: string): string {
  let out = message;
  try {
    const url = config().databaseUrl;
    const password = url ? new URL(url).password : "";
    // a very short password would blank out ordinary words in the message
    if (password.length >= 4) {
      out = out.replaceAll(password, "***").replaceAll(decodeURIComponent(password), "***");
    }
  } catch {
    // an unparsable URL has no password to hide
  }
  return out;
}

// PostgreSQL: undefined_table, undefined_column — the schema is behind the code
const NOT_MIGRATED = new Set(["42P01", "42703"]);
// PostgreSQL: invalid_password, invalid_authorization_specification, invalid_catalog_name (no such database)
const CANNOT_OPEN = new Set(["28P01", "28000", "3D000"]);

/** What a failed command reports: a code a script can act on, and a message for a person. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  // a bad environment variable is bad input: nothing was done
  if (error instanceof ConfigError) return new CliError("CONFIG_INVALID", error.message, 2);
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === "string" && NOT_MIGRATED.has(code)) {
    return new CliError(
      "DATABASE_NOT_MIGRATED",
      "The database schema is not up to date. Run `idv db migrate` first.",
    );
  }
  if (error instanceof Error && error.name === "ApiError" && typeof code === "string") {
    return new CliError(code, message);
  }
  if (typeof code === "string" && CANNOT_OPEN.has(code)) {
    return new CliError("DATABASE_UNAVAILABLE", `Cannot open the database: ${message.split("\n")[0]}`);
  }
  if (isDatabaseUnavailable(error) || /ECONNREFUSED|connect ETIMEDOUT|getaddrinfo/.test(message)) {
    return new CliError("DATABASE_UNAVAILABLE", `Cannot connect to the database: ${message.split("\n")[0]}`);
  }
  if (message.startsWith("database migration failed")) {
    return new CliError("MIGRATION_FAILED", message.trim());
  }
  return new CliError("INTERNAL_ERROR", message.trim() || "unexpected failure");
}

function report(error: unknown, json: boolean): number {
  const failure = toCliError(error);
  const message = redact(failure.message);
  const hint = failure.code === "USAGE_ERROR" && !json ? " (run `idv help` for usage)" : "";
  process.stderr.write(
    json ? `${JSON.stringify({ error: { code: failure.code, message } })}\n` : `error: ${message}${hint}\n`,
  );
  return failure.exitCode;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const json = argv.includes("--json");
  if (
    command === undefined ||
    command === "help" ||
    command === "--help" ||
    command === "-h" ||
    rest.includes("--help") ||
    rest.includes("-h")
  ) {
    process.stdout.write(USAGE);
    return 0;
  }
  try {
    const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!load) throw usageError(`unknown command: ${command}`);
    config(); // a bad environment variable stops every command before it starts (CONFIG_INVALID)
    return await (await load()).run(rest);
  } catch (error) {
    return report(error, json);
  }
}
