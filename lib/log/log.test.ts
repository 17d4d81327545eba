import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");

/** Logs one warning in a fresh process with `env`, and returns what went where. */
function logOnce(env: Record<string, string>): { stdout: string; stderr: string } {
  const script = `import { logger } from "./lib/log/index.ts"; logger.warn("one line"); logger.flush?.();`;
  const res = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "info", ...env } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  return { stdout: res.stdout, stderr: res.stderr };
}

describe("the logger's destination", () => {
  it("is standard output for the server", () => {
    const res = logOnce({});
    expect(res.stdout).toContain('"msg":"one line"');
    expect(res.stderr).not.toContain("one line");
  });

  it("is standard error for CLI commands, so that their --json output stays clean", () => {
    const res = logOnce({ IDV_LOG_STDERR: "1" });
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain('"msg":"one line"');
  });
});
