/** `idv workspace create`: a workspace with its owner (new or existing user) and one key per environment. */
import { z } from "zod";
import { createWorkspace } from "../workspaces";
import { expectSubcommand, parseCommand } from "./args";
import { printResult, withDatabase } from "./runtime";
import { ZEmailFlag, ZJsonFlag, ZNameFlag, ZPasswordFlag } from "./schemas";
import { inTransaction } from "../db/kysely";

const ZCreateFlags = z.object({
  name: ZNameFlag,
  email: ZEmailFlag,
  password: ZPasswordFlag,
  json: ZJsonFlag,
});

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  expectSubcommand("workspace", sub, "create");
  const flags = parseCommand(rest, ZCreateFlags, ["json"]);
  const created = await withDatabase((db) =>
    inTransaction(db, (tx) =>
      createWorkspace(tx, { name: flags.name, email: flags.email, password: flags.password }),
    ),
  );
  printResult(flags.json, { workspaceId: created.workspaceId, userId: created.userId, keys: created.keys }, [
    `Created workspace "${flags.name}" (${created.workspaceId}).`,
    `  Owner:           ${flags.email.trim().toLowerCase()} (${created.userId})`,
    `  Sandbox key:     ${created.keys.sandbox}`,
    `  Production key:  ${created.keys.production}`,
    "The keys are shown only this once; store them in a secret manager now.",
  ]);
  return 0;
}
