/**
 * Operator review of activation tickets (Operator API).
 * Rules:
 * - operators act on any workspace, but only on tickets of the URL's environment (404 otherwise,
 *   and for tickets of deleted apps);
 * - review → approve | reject, strictly as the spec's table: a review is started on an
 *   activation_requested ticket (→ activation_processing) and only a ticket under review is
 *   approved (→ activated) or rejected (→ rejected, with a 1–500 character reason); any other
 *   move is refused naming the ticket's current status;
 * - a contract provider, activated off-API once its contract is signed, is recorded by an
 *   operator (a ticket created activated);
 * - every step is audited with the operator's user id, whether the operator used an operator key
 *   or their back-office session;
 * - the queue is across workspaces, filtered by status and provider, oldest first; a ticket's
 *   page shows the submitted values beside the provider's current requirements, the app's
 *   company information and the earlier tickets of the same app and provider.
 */
import type { OperatorActor } from "../auth/actor";
import { operatorAudit, recordAudit } from "../audit";
import type { Db } from "../db/kysely";
import type { TEnvironment } from "../environments";
import { ApiError, invalidField, notFound } from "../errors";
import { page, type TPage } from "../http/pagination";
import { requirementJson } from "../providers/app-providers";
import { findProvider } from "../providers/catalog";
import { parseCompanyInfo, parseSubmittedValues } from "../providers/requirements";
import type { TListTicketsQuery, TQueueTicketJson, TTicketDetailJson, TTicketJson } from "./schema";
import { transition } from "../state-machine";
import { ACTIVATION_TRANSITIONS, activationStatusOf, stateConflict } from "./state-machine";
import {
  insertProviderRow,
  lockApp,
  readAppScope,
  readCompanyInfo,
  readProviderStatus,
  updateProviderRow,
} from "./store/apps";
import {
  countQueue,
  listEarlierTickets,
  listQueue,
  readWorkspaceNames,
  type TTicketWithApp,
} from "./store/tickets";
import { createTicket, getTicket, moveTicket, toTicketJson } from "./tickets";

// a missing row answers 404 RESOURCE_NOT_FOUND
const missingRow = () => new ApiError("RESOURCE_NOT_FOUND", "Resource not found");

async function withWorkspaceNames(db: Db, tickets: TTicketWithApp[]): Promise<TQueueTicketJson[]> {
  const ids = [...new Set(tickets.map((t) => t.workspaceId))];
  const names = ids.length ? await readWorkspaceNames(db, ids) : new Map<string, string>();
  return tickets.map((t) => ({
    ...toTicketJson(t),
    workspaceName: names.get(t.workspaceId) ?? t.workspaceId,
  }));
}

export async function listTickets(
  db: Db,
  env: TEnvironment,
  query: TListTicketsQuery,
): Promise<TPage<TQueueTicketJson>> {
  const filter = { environment: env, status: query.status, providerId: query.providerId ?? null };
  const [total, rows] = await Promise.all([
    countQueue(db, filter),
    listQueue(db, filter, { limit: query.limit, offset: query.offset }),
  ]);
  return page(await withWorkspaceNames(db, rows), total, query.limit, query.offset);
}

/** One ticket with what its review needs: requirements beside the values, company info, history. */
export async function getTicketDetail(
  db: Db,
  env: TEnvironment,
  ticketId: string,
): Promise<TTicketDetailJson> {
  const ticket = await getTicket(db, env, ticketId);
  const [[queued], app, earlier] = await Promise.all([
    withWorkspaceNames(db, [ticket]),
    readCompanyInfo(db, ticket.appId),
    listEarlierTickets(db, ticket),
  ]);
  if (!app) throw missingRow();
  const companyInfo = parseCompanyInfo(app.companyInfo);
  const submitted = parseSubmittedValues(ticket.submitted);
  const requirements = findProvider(ticket.providerId)?.activation.requirements ?? [];
  return {
    ticket: queued!,
    app: { clientId: ticket.appId, name: ticket.app.name, companyInfo },
    requirements: requirements.map((r) => requirementJson(r, companyInfo, submitted)),
    history: earlier.map(toTicketJson),
  };
}

export async function startReview(db: Db, actor: OperatorActor, ticketId: string): Promise<TTicketJson> {
  const ticket = await getTicket(db, actor.env, ticketId);
  const moved = await moveTicket(db, ticket, {
    event: "start_review",
    data: { reviewStartedAt: new Date(), reviewerUserId: actor.auth.userId },
    audit: { ...operatorAudit(actor), action: "activation.review_started" },
  });
  return toTicketJson(moved);
}

export async function approveTicket(db: Db, actor: OperatorActor, ticketId: string): Promise<TTicketJson> {
  const ticket = await getTicket(db, actor.env, ticketId);
  const moved = await moveTicket(db, ticket, {
    event: "approve",
    data: { activatedAt: new Date(), reviewerUserId: actor.auth.userId },
    audit: { ...operatorAudit(actor), action: "activation.approved" },
  });
  return toTicketJson(moved);
}

export async function rejectTicket(
  db: Db,
  actor: OperatorActor,
  ticketId: string,
  reason: string,
): Promise<TTicketJson> {
  const ticket = await getTicket(db, actor.env, ticketId);
  const moved = await moveTicket(db, ticket, {
    event: "reject",
    data: { rejectedAt: new Date(), rejectionReason: reason, reviewerUserId: actor.auth.userId },
    audit: { ...operatorAudit(actor), action: "activation.rejected", data: { reason } },
  });
  return toTicketJson(moved);
}

/** Records the off-API activation of a contract provider for an app: a ticket born activated. */
export async function recordContractActivation(
  db: Db,
  actor: OperatorActor,
  input: { clientId: string; providerId: string },
): Promise<TTicketJson> {
  const app = await readAppScope(db, input.clientId);
  if (!app || app.deletedAt || app.environment !== actor.env) throw notFound(`App "${input.clientId}"`);
  const provider = findProvider(input.providerId);
  if (!provider) throw invalidField("providerId", "Unknown provider");
  if (provider.activation.kind !== "contract") {
    throw new ApiError(
      "VALIDATION_ERROR",
      `providerId: "${provider.id}" is a ${provider.activation.kind} provider; only contract providers are activated off-API`,
      {
        details: [
          { path: "providerId", message: `is a ${provider.activation.kind} provider, not a contract one` },
        ],
      },
    );
  }
  await lockApp(db, app.id);
  const key = { appId: app.id, providerId: provider.id };
  const row = await readProviderStatus(db, app.id, provider.id);
  const from = activationStatusOf(row);
  const to = transition(ACTIVATION_TRANSITIONS, from, "record_contract", () =>
    stateConflict(`Provider "${provider.id}" is ${from} for app ${app.id}; nothing to record`, [
      { path: "providerId", message: `status is ${from}` },
    ]),
  );
  const now = new Date();
  const ticketId = await createTicket(db, app, provider.id, {
    status: to,
    submitted: {},
    requestedAt: now,
    reviewStartedAt: now,
    activatedAt: now,
    reviewerUserId: actor.auth.userId,
  });
  const state = { status: to, currentTicketId: ticketId, activatedAt: now, enabled: true, config: {} };
  if (!row) await insertProviderRow(db, key, state);
  else if (!(await updateProviderRow(db, key, state))) throw missingRow();
  await recordAudit(db, {
    ...operatorAudit(actor),
    workspaceId: app.workspaceId,
    environment: app.environment,
    action: "activation.contract_recorded",
    targetType: "activation_ticket",
    targetId: ticketId,
    data: { clientId: app.id, providerId: provider.id, from, to },
  });
  return toTicketJson(await getTicket(db, actor.env, ticketId));
}
