// Runs `prisma generate` offline: it writes the data layer's row types (prisma-kysely,
// lib/db/generated/kysely); no Prisma client is generated (prisma.config.ts keeps the CLI from
// downloading a query engine). The CLI reads the schema's datasource (which names DATABASE_URL)
// before running the generator; generation never connects, so any URL works.
import { spawnSync } from "node:child_process";

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.DATABASE_URL ||= "postgresql://localhost:5432/unused";
const result = spawnSync("prisma", ["generate"], {
  stdio: "inherit",
  env,
  shell: process.platform === "win32",
});
process.exit(result.status ?? 1);
