import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      "**/.next/**",
      "e2e/rp/next-env.d.ts",
      ".data/**",
      "node_modules/**",
      "lib/db/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // domain code stays free of the framework (docs/design.md §6)
    files: ["lib/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["next", "next/*"], message: "lib/ must not depend on Next.js" }] },
      ],
    },
  },
  {
    // every environment variable is read once, in lib/config (issue 14 item 4)
    files: [
      "lib/**/*.ts",
      "app/**/*.ts",
      "app/**/*.tsx",
      "components/**/*.ts",
      "components/**/*.tsx",
      "proxy.ts",
      "instrumentation.ts",
    ],
    ignores: ["lib/config/**", "lib/testing/**", "**/*.test.ts", "**/*.test.tsx", "e2e/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through lib/config (config())" },
      ],
    },
  },
];

export default config;
