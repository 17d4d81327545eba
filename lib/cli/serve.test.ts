/**
 * `idv serve --dev` runs Next.js's development server behind server/production.mjs's listener
 * (not `next dev`), so development refuses what production refuses: TRACE is 405, where `next
 * dev` answered 500 (its Request constructor throws for TRACE before proxy.ts runs). The
 * listener's refusal itself is tested in server/production.test.mjs.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverCommand } from "./serve";

describe("serverCommand", () => {
  it("runs development through server/production.mjs --dev, not next dev", () => {
    const command = serverCommand({ dev: true, port: 3000, hostname: "127.0.0.1" });
    expect(path.relative(process.cwd(), command[0]!)).toBe(path.join("server", "production.mjs"));
    expect(command.slice(1)).toEqual(["--dev", "--port", "3000", "--hostname", "127.0.0.1"]);
    expect(command.join(" ")).not.toMatch(/next\/dist\/bin\/next/);
  });

  it("runs production through server/production.mjs with a bounded heap", () => {
    const command = serverCommand({ dev: false, port: 8080, hostname: "0.0.0.0" });
    expect(command[0]).toMatch(/^--max-old-space-size=\d+$/);
    expect(command.slice(1)).toContain("--port");
    expect(command).not.toContain("--dev");
  });
});
