// Runs `prisma generate` offline. The CLI reads the schema's datasource (which names
// DATABASE_URL) before deciding whether it needs a native engine; without a value it falls
// back to downloading one, which fails offline. Generation never connects, so any URL works.
import { spawnSync } from "node:child_process";

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.DATABASE_URL ||= "postgresql://localhost:5432/unused";
const result = spawnSync("prisma", ["generate"], {
  stdio: "inherit",
  env,
  shell: process.platform === "win32",
});
process.exit(result.status ?? 1);
