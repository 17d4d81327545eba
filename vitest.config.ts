import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "components/**/*.test.ts?(x)",
            "app/**/*.test.ts",
            "server/**/*.test.mjs",
          ],
          exclude: ["**/*.integration.test.ts", "node_modules/**"],
          environment: "node",
          setupFiles: ["lib/testing/setup-env.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude: ["node_modules/**", ".next/**"],
          environment: "node",
          globalSetup: ["lib/testing/global-setup.ts"],
          setupFiles: ["lib/testing/setup-env.ts", "lib/testing/setup-integration.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
