/** Test data built through the same domain code the product uses. */
import { getDb } from "../db/client";
import { randomToken } from "../ids";
import { createWorkspace } from "../workspaces";
import { call, bearer } from "./router";

export async function makeWorkspace(name = "Test workspace") {
  const email = `owner-${randomToken(10).toLowerCase()}@example.test`;
  const created = await createWorkspace(getDb(), { name, email, password: "correct horse battery staple" });
  return { ...created, email };
}

export async function makeApp(key: string, env: "sandbox" | "production" = "sandbox", name = "Test app") {
  const res = await call("POST", `/api/${env}/v1/apps`, { headers: bearer(key), body: { name } });
  if (res.status !== 201) throw new Error(`creating an app failed: ${res.status} ${res.text}`);
  return res.body as {
    clientId: string;
    clientSecret: string;
    defaultWorkflowId: string;
    [k: string]: unknown;
  };
}

export async function makeOperator() {
  const { createOperator } = await import("../operators");
  const email = `operator-${randomToken(10).toLowerCase()}@example.test`;
  return getDb().$transaction((tx) => createOperator(tx, { email, password: "operator password 1" }));
}
