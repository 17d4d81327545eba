/**
 * Test helpers for the code exchange: completed verifications written directly (as the
 * verification service leaves them) and codes issued for them.
 */
import { kysely } from "../db/client";
import { newId } from "../ids";
import { issueCode as issueStoredCode, type TIssueCodeInput } from "../oidc/codes";
import { subjectFor } from "../oidc/subject";
import { makeApp, makeWorkspace } from "./factories";

export type TEnv = "sandbox" | "production";

export async function makeTokenApp(env: TEnv = "sandbox") {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys[env], env);
  return { ws, app, env };
}

export interface TVerificationOptions {
  status?: string;
  providerId?: string;
  loa?: number | null;
  upstreamSubject?: string;
  verifiedAt?: Date;
}

/** A verification row of `clientId` (completed by default) with subject, LoA and verifiedAt. */
export async function makeVerification(clientId: string, options: TVerificationOptions = {}) {
  const db = kysely();
  const app = await db
    .selectFrom("apps")
    .select(["id", "workspaceId", "environment", "defaultWorkflowId"])
    .where("id", "=", clientId)
    .executeTakeFirstOrThrow();
  const providerId = options.providerId ?? "passport";
  const status = options.status ?? "completed";
  const completed = status === "completed";
  const verifiedAt = options.verifiedAt ?? new Date(Date.now() - 5_000);
  const now = new Date();
  return db
    .insertInto("verifications")
    .values({
      id: newId("ver"),
      appId: app.id,
      workspaceId: app.workspaceId,
      environment: app.environment,
      providerId,
      workflowId: app.defaultWorkflowId ?? "wf_none",
      verificationNodeId: "verification",
      flowType: "redirect",
      channel: "oidc",
      status,
      loa: options.loa === undefined ? 2 : options.loa,
      subject: completed
        ? subjectFor(providerId, options.upstreamSubject ?? `upstream-${newId("req")}`)
        : null,
      expiresAt: new Date(Date.now() + 900_000),
      verifiedAt: completed ? verifiedAt : null,
      endedAt: completed ? verifiedAt : null,
      updatedAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A code for a verification, issued through the product's own function (a REST code by default). */
export async function issueCode(
  verification: { id: string; appId: string; environment: TEnv },
  options: Partial<Omit<TIssueCodeInput, "appId" | "environment" | "verificationId">> = {},
): Promise<string> {
  return issueStoredCode(kysely(), {
    appId: verification.appId,
    environment: verification.environment,
    verificationId: verification.id,
    surface: "rest",
    ...options,
  });
}
