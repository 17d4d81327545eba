/** `idv operator create`: an operator user (new, or an existing user upgraded) and an operator key. */
import { z } from "zod";
import { createOperator } from "../operators";
import { expectSubcommand, parseCommand } from "./args";
import { printResult, withDatabase } from "./runtime";
import { ZEmailFlag, ZJsonFlag, ZPasswordFlag } from "./schemas";
import { inTransaction } from "../db/kysely";

const ZCreateFlags = z.object({ email: ZEmailFlag, password: ZPasswordFlag, json: ZJsonFlag });

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  expectSubcommand("operator", sub, "create");
  const flags = parseCommand(rest, ZCreateFlags, ["json"]);
  const created = await withDatabase((db) =>
    inTransaction(db, (tx) => createOperator(tx, { email: flags.email, password: flags.password })),
  );
  const email = flags.email.trim().toLowerCase();
  const what = created.newUser
    ? `Created operator ${email}`
    : created.wasOperator
      ? `Issued another operator key for ${email}`
      : `Made ${email} an operator`;
  printResult(flags.json, { userId: created.userId, operatorKey: created.operatorKey }, [
    `${what} (${created.userId}).`,
    `  Operator key:  ${created.operatorKey}`,
    "The key is shown only this once; store it in a secret manager now.",
  ]);
  return 0;
}
