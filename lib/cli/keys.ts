/** `idv keys create`: another workspace API key for one environment of an existing workspace. */
import { z } from "zod";
import { issueWorkspaceKey } from "../workspaces";
import { expectSubcommand, parseCommand } from "./args";
import { printResult, withDatabase } from "./runtime";
import { ZEnvironmentFlag, ZJsonFlag, ZNameFlag } from "./schemas";
import { inTransaction } from "../db/kysely";

const ZCreateFlags = z.object({
  workspace: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  env: ZEnvironmentFlag,
  name: ZNameFlag.optional(),
  json: ZJsonFlag,
});

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  expectSubcommand("keys", sub, "create");
  const flags = parseCommand(rest, ZCreateFlags, ["json"]);
  const issued = await withDatabase((db) =>
    inTransaction(db, (tx) =>
      issueWorkspaceKey(tx, { workspaceId: flags.workspace, environment: flags.env, name: flags.name }),
    ),
  );
  printResult(flags.json, issued, [
    `Created a ${issued.environment} key for workspace ${issued.workspaceId} (${issued.keyId}).`,
    `  Key:  ${issued.key}`,
    "The key is shown only this once; store it in a secret manager now.",
  ]);
  return 0;
}
