/** The operator CLI (`idv`), run the way an operator runs it, against the e2e database. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { E2E_ENV } from "./env";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..", "..");

export interface CreatedWorkspace {
  workspaceId: string;
  userId: string;
  keys: { sandbox: string; production: string };
  /** the owner's sign-in */
  email: string;
  password: string;
}

/** Runs `idv …args` and returns its standard output; fails with the CLI's own output. */
export async function idv(args: string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [path.join(root, "bin", "idv.mjs"), ...args], {
      cwd: root,
      env: { ...process.env, ...E2E_ENV },
      timeout: 60_000,
    });
    return stdout;
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    throw new Error(`idv ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** `idv workspace create --json` with a fresh owner, so specs never share a workspace. */
export async function createWorkspace(label: string): Promise<CreatedWorkspace> {
  const unique = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const email = `e2e-${unique}@example.test`;
  const password = `E2e-password-${unique}`;
  const stdout = await idv([
    "workspace",
    "create",
    "--name",
    `E2E ${label} ${unique}`,
    "--email",
    email,
    "--password",
    password,
    "--json",
  ]);
  const created = {
    ...(JSON.parse(stdout.trim()) as Omit<CreatedWorkspace, "email" | "password">),
    email,
    password,
  };
  if (!created.keys?.sandbox?.startsWith("sk_workspace_test_")) {
    throw new Error(`unexpected output of idv workspace create: ${stdout}`);
  }
  return created;
}
