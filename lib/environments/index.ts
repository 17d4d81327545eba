/** The two environments. Every environment-scoped record carries one; data never crosses. */
export const ENVIRONMENTS = ["sandbox", "production"] as const;
export type TEnvironment = (typeof ENVIRONMENTS)[number];

export function parseEnvironment(value: string | undefined): TEnvironment | undefined {
  return value === "sandbox" || value === "production" ? value : undefined;
}

/** Key and secret prefixes per environment (spec: sk_workspace_test_ vs sk_workspace_prod_). */
export const ENV_TAG: Record<TEnvironment, "test" | "prod"> = { sandbox: "test", production: "prod" };
