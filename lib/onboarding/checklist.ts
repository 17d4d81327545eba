/**
 * The first-run checklist of a workspace (console dashboard): the five steps from a new workspace
 * to a production launch, each ticked from real state, never from what the browser remembers.
 * Rules:
 * - workspace-wide: the same answer under /api/sandbox and /api/production (like the team
 *   endpoints); it says only whether a step happened, never what or by whom;
 * - `app`: any app not deleted, in either environment;
 * - `test_verification`: any sandbox session an end-user or the integrator created (OpenID
 *   Provider requests nobody acted on, `untouched`, do not count);
 * - `webhook`: any app not deleted with a webhook URL set;
 * - `teammate`: more than one member, or an invitation still open (not accepted, revoked or
 *   expired);
 * - `production`: what "going to production" asks of an integrator here: a provider activation
 *   submitted in production (an activation ticket), or a production test requested (operators
 *   run it with real end-users);
 * - steps are listed in the order an integrator takes them; `done` when all five are.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Db } from "../db/client";
import type { TChecklist, TChecklistStepId } from "./endpoints";
import { readChecklistFacts, type TChecklistFacts } from "./store/checklist";

const STEPS: { id: TChecklistStepId; fact: keyof TChecklistFacts }[] = [
  { id: "app", fact: "hasApp" },
  { id: "test_verification", fact: "hasSandboxVerification" },
  { id: "webhook", fact: "hasWebhook" },
  { id: "teammate", fact: "hasTeammate" },
  { id: "production", fact: "hasProductionRequest" },
];

export async function getChecklist(db: Db, auth: WorkspaceAuth, now = new Date()): Promise<TChecklist> {
  const facts = await readChecklistFacts(db, auth.workspaceId, now);
  const steps = STEPS.map((s) => ({ id: s.id, done: facts[s.fact] }));
  return { steps, done: steps.every((s) => s.done) };
}
