/**
 * Development seed: one demo workspace with a known sign-in, created on first run. Its sandbox
 * key is remembered in `.data/demo.json` (git-ignored) so every start can print it.
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../config/paths";
import { closeDatabase, kysely } from "../db/client";
import { readUserByEmail } from "../team/store/accounts";
import { createWorkspace } from "../workspaces";
import { inTransaction } from "../db/kysely";

export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "demo-password";

export async function seedDemo(): Promise<{ email: string; password: string; sandboxKey?: string }> {
  const file = path.join(projectRoot, ".data", "demo.json");
  const db = kysely();
  const existing = await readUserByEmail(db, DEMO_EMAIL);
  let sandboxKey: string | undefined;
  if (!existing) {
    const created = await inTransaction(db, (tx) =>
      createWorkspace(tx, { name: "Demo workspace", email: DEMO_EMAIL, password: DEMO_PASSWORD }),
    );
    sandboxKey = created.keys.sandbox;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ workspaceId: created.workspaceId, sandboxKey }, null, 2), {
      mode: 0o600,
    });
  } else if (fs.existsSync(file)) {
    sandboxKey = (JSON.parse(fs.readFileSync(file, "utf8")) as { sandboxKey?: string }).sandboxKey;
  }
  await closeDatabase();
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, sandboxKey };
}
