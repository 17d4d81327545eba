/**
 * Environment variables for one test: `setEnv` sets them, and they are put back as they were
 * after each test (`restoreEnvAfterEach()` at the top of the file).
 */
import { afterEach } from "vitest";

const saved: [string, string | undefined][] = [];

export function setEnv(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    saved.push([name, process.env[name]]);
    process.env[name] = value;
  }
}

export function restoreEnvAfterEach(): void {
  afterEach(() => {
    for (const [name, value] of saved.splice(0).reverse()) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}
