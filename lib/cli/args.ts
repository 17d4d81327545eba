/**
 * The argument parser of the `idv` commands: `--flag value`, `--flag=value` and boolean
 * `--flag`, validated with zod.
 * Rules: unknown flags, stray arguments and missing values are usage errors (exit code 2), and
 * so is a value the schema refuses; every message is one line that names the flag. Values are
 * never echoed back, so a mistyped password cannot end up on the terminal or in a CI log.
 */
import { parseArgs } from "node:util";
import type { z } from "zod";

/** A failure the CLI reports as `{"error":{"code","message"}}` (or `error: …`) and exits with. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;

  constructor(code: string, message: string, exitCode = 1) {
    super(message);
    this.name = "CliError";
    this.code = code;
    this.exitCode = exitCode;
  }
}

export function usageError(message: string): CliError {
  return new CliError("USAGE_ERROR", message, 2);
}

/** Checks the word after a command group (`idv keys create`): the groups have one each for now. */
export function expectSubcommand(group: string, sub: string | undefined, expected: string): void {
  if (sub === expected) return;
  const got = sub === undefined || sub.startsWith("-") ? `idv ${group}` : `idv ${group} ${sub}`;
  throw usageError(`unknown command "${got}"; did you mean "idv ${group} ${expected}"?`);
}

export type FlagSpec = Record<string, "string" | "boolean">;
type RawFlags = Record<string, string | boolean | undefined>;

function optionName(message: string): string | undefined {
  // Node's messages quote the option as '--name' or '--name <value>'
  return /'(-{1,2}[^'\s=<]+)/.exec(message)?.[1];
}

/** Splits `args` into flags; throws a usage error for anything `spec` does not allow. */
export function parseFlags(args: string[], spec: FlagSpec): RawFlags {
  return splitArgs(args, spec, 0).values;
}

/** Flags and up to `maxPositionals` plain arguments (a file name); more is a usage error. */
function splitArgs(
  args: string[],
  spec: FlagSpec,
  maxPositionals: number,
): { values: RawFlags; positionals: string[] } {
  const options = Object.fromEntries(Object.entries(spec).map(([name, type]) => [name, { type }]));
  try {
    const parsed = parseArgs({ args, options, strict: true, allowPositionals: maxPositionals > 0 });
    if (parsed.positionals.length > maxPositionals) {
      throw usageError(`unexpected argument; at most ${maxPositionals} may follow the command`);
    }
    return { values: parsed.values as RawFlags, positionals: parsed.positionals };
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    const flag = optionName(message);
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") throw usageError(`unknown option ${flag ?? ""}`.trim());
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      throw usageError("unexpected argument; values must follow a --flag (quote values that contain spaces)");
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag) {
      if (/does not take an argument/.test(message)) throw usageError(`${flag} does not take a value`);
      if (/ambiguous/.test(message)) {
        throw usageError(`${flag} needs a value (write ${flag}=VALUE for a value that starts with "-")`);
      }
      throw usageError(`${flag} needs a value`);
    }
    throw usageError(message.split("\n")[0] ?? "invalid arguments");
  }
}

/**
 * Parses `args` against the keys of `schema` (string flags, except those named in `booleans`)
 * and validates them. A flag the schema refuses when absent is reported as required; other
 * issue messages are written to read after the flag: "--email must be a valid email address".
 */
export function parseCommand<S extends z.ZodObject>(
  args: string[],
  schema: S,
  booleans: string[] = [],
): z.infer<S> {
  return parseCommandWithArguments(args, schema, booleans, 0).flags;
}

/** As `parseCommand`, also taking up to `maxPositionals` plain arguments (`idv connections import FILE`). */
export function parseCommandWithArguments<S extends z.ZodObject>(
  args: string[],
  schema: S,
  booleans: string[],
  maxPositionals: number,
): { flags: z.infer<S>; positionals: string[] } {
  const spec: FlagSpec = {};
  for (const name of Object.keys(schema.shape)) {
    spec[name] = booleans.includes(name) ? "boolean" : "string";
  }
  const { values: raw, positionals } = splitArgs(args, spec, maxPositionals);
  const result = schema.safeParse(raw);
  if (result.success) return { flags: result.data, positionals };
  const problems = result.error.issues.map((issue) => {
    const flag = String(issue.path[0] ?? "");
    return raw[flag] === undefined ? `--${flag} is required` : `--${flag} ${issue.message}`;
  });
  throw new CliError("VALIDATION_ERROR", [...new Set(problems)].join("; "), 2);
}
