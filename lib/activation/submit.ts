/**
 * Submitting activation requests (POST /v1/apps/{client_id}/activation).
 * Rules:
 * - all or nothing: every provider id must be in the catalog and every value must pass its
 *   requirement, and every provider must be in a state that accepts a submission; otherwise
 *   400 naming each offending `providers.<id>[.<requirement>]` and nothing is written;
 * - `demo: true` only in the sandbox (400 naming `demo` in production); it applies to
 *   registration and contract providers (direct ones are activated at once anyway);
 * - the move follows the transition table (state-machine.ts): direct → activated at once;
 *   registration → activation_requested; demo → activation_processing, then a job enqueued in
 *   the same transaction activates it about a second later; contract without demo → unchanged
 *   and no ticket (activated off-API); rejected providers are resubmitted with a new ticket;
 * - submitting adds the provider to the app (its row, disabled until activated); values of
 *   company-information inputs are remembered on the app to prefill later forms;
 * - submissions of one app are serialised (row lock on the app), so two concurrent requests
 *   cannot both open a ticket for the same provider.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { getOwnedApp } from "../apps/service";
import { recordAudit, workspaceAudit } from "../audit";
import type { Db } from "../db/client";
import { ApiError, invalidField, type ErrorDetail } from "../errors";
import { validationError } from "../errors/validation";
import { completeDemoActivationJob } from "../jobs/definitions";
import { enqueue } from "../jobs/registry";
import { loadProviderEntries } from "../providers/app-providers";
import { findProvider, type TProviderDefinition } from "../providers/catalog";
import {
  checkRequirementValues,
  isCompanyInfo,
  parseCompanyInfo,
  type TRequirementValue,
} from "../providers/requirements";
import type { TProviderJson } from "../providers/schema";
import type { TSubmitActivation } from "./schema";
import { nextState } from "../state-machine";
import {
  ACTIVATION_TRANSITIONS,
  activationStatusOf,
  stateConflict,
  type TActivationEvent,
} from "./state-machine";
import {
  insertProviderRow,
  lockApp,
  readProviderStatuses,
  updateCompanyInfo,
  updateProviderRow,
} from "./store/apps";
import { createTicket } from "./tickets";

/** how long a demo activation stays in activation_processing */
export const DEMO_DELAY_MS = 1000;

interface TPlanned {
  provider: TProviderDefinition;
  values: Record<string, TRequirementValue>;
  event: TActivationEvent;
  from: string;
  to: string;
  exists: boolean;
}

function eventFor(provider: TProviderDefinition, demo: boolean): TActivationEvent {
  const kind = provider.activation.kind;
  if (kind === "direct") return "submit_direct";
  if (demo) return "submit_demo";
  return kind === "registration" ? "submit_registration" : "submit_contract";
}

// a missing row answers 404 RESOURCE_NOT_FOUND
const missingRow = () => new ApiError("RESOURCE_NOT_FOUND", "Resource not found");

function conflictMessage(status: string): string {
  if (status === "activated") return "is already activated";
  return `has an activation under review (status ${status}); wait for the review result`;
}

export async function submitActivation(
  db: Db,
  actor: { auth: WorkspaceAuth; requestId: string },
  clientId: string,
  body: TSubmitActivation,
): Promise<TProviderJson[]> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const demo = body.demo === true;
  if (demo && actor.auth.environment !== "sandbox") {
    throw invalidField("demo", "is only available in the sandbox; production activations are reviewed");
  }
  // read what the decision depends on only under the lock
  const locked = await lockApp(db, app.id);
  const storedInfo = locked?.companyInfo;
  const rows = await readProviderStatuses(db, app.id);
  const rowById = new Map(rows.map((r) => [r.providerId, r]));

  const details: ErrorDetail[] = [];
  const conflicts: ErrorDetail[] = [];
  const planned: TPlanned[] = [];
  for (const [providerId, input] of Object.entries(body.providers)) {
    const path = `providers.${providerId}`;
    const provider = findProvider(providerId);
    if (!provider) {
      details.push({ path, message: "Unknown provider: not in the catalog" });
      continue;
    }
    const checked = checkRequirementValues(provider.activation.requirements, input, path);
    details.push(...checked.details);
    const row = rowById.get(providerId);
    const from = activationStatusOf(row);
    const event = eventFor(provider, demo);
    const to = nextState(ACTIVATION_TRANSITIONS, from, event);
    if (!to) conflicts.push({ path, message: conflictMessage(from) });
    else planned.push({ provider, values: checked.values, event, from, to, exists: !!row });
  }
  if (details.length) throw validationError(details, "Invalid activation request");
  if (conflicts.length) {
    throw stateConflict(
      `Activation refused: ${conflicts.map((c) => `${c.path} ${c.message}`).join("; ")}`,
      conflicts,
    );
  }

  const now = new Date();
  const audit = workspaceAudit(actor);
  const companyInfo: Record<string, unknown> = { ...parseCompanyInfo(storedInfo ?? {}) };
  let companyInfoChanged = false;

  for (const step of planned) {
    const { provider, values, to } = step;
    const key = { appId: app.id, providerId: provider.id };
    if (!step.exists) {
      // added disabled: a provider is enabled when it becomes activated
      await insertProviderRow(db, key, { enabled: false });
      await recordAudit(db, {
        ...audit,
        action: "app_provider.added",
        targetType: "app",
        targetId: app.id,
        data: { providerId: provider.id },
      });
    }
    for (const r of provider.activation.requirements) {
      if (isCompanyInfo(r) && values[r.id] !== undefined) {
        companyInfo[r.id] = values[r.id];
        companyInfoChanged = true;
      }
    }
    if (step.event === "submit_contract") continue; // activated off-API: no ticket

    const activated = to === "activated";
    const ticketId = await createTicket(db, app, provider.id, {
      status: to,
      submitted: values,
      demo: demo && step.event === "submit_demo",
      requestedAt: now,
      activatedAt: activated ? now : null,
    });
    const updated = await updateProviderRow(db, key, {
      status: to,
      currentTicketId: ticketId,
      ...(activated ? { activatedAt: now, enabled: true, config: values } : {}),
    });
    if (!updated) throw missingRow();
    await recordAudit(db, {
      ...audit,
      action: "activation.submitted",
      targetType: "activation_ticket",
      targetId: ticketId,
      data: {
        clientId: app.id,
        providerId: provider.id,
        from: step.from,
        to,
        demo: step.event === "submit_demo",
      },
    });
    if (to === "activation_processing") {
      await enqueue(
        db,
        completeDemoActivationJob,
        { ticketId },
        { runAt: new Date(now.getTime() + DEMO_DELAY_MS) },
      );
    }
  }
  if (companyInfoChanged) {
    if (!(await updateCompanyInfo(db, app.id, companyInfo))) throw missingRow();
  }
  return loadProviderEntries(
    db,
    { ...app, companyInfo },
    { providerIds: planned.map((p) => p.provider.id), withActivation: true },
  );
}
