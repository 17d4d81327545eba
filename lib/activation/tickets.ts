/**
 * Activation tickets (act_…): one per submission. Moving a ticket goes through the transition
 * table, changes the ticket only if it is still in the state it was read in (so two operators,
 * or an operator and the demo job, cannot both move it), mirrors the new state on the app's
 * provider row while the ticket is the current one, and writes the audit record — all in the
 * caller's transaction. Activation copies the submitted values into the provider's stored
 * configuration and enables the provider for the app.
 */
import { recordAudit } from "../audit";
import type { AuditEntry } from "../audit/entry";
import type { Db } from "../db/kysely";
import type { TEnvironment } from "../environments";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";
import { findProvider } from "../providers/catalog";
import { parseSubmittedValues } from "../providers/requirements";
import { allowedFrom, transition } from "../state-machine";
import {
  ACTIVATION_TRANSITIONS,
  parseTicketStatus,
  stateConflict,
  type TActivationEvent,
} from "./state-machine";
import type { TTicketJson } from "./schema";
import { mirrorTicketOnProvider } from "./store/apps";
import {
  insertTicket,
  readTicket,
  readTicketStatus,
  updateTicketStatus,
  type TNewTicket,
  type TTicketChange,
  type TTicketWithApp,
} from "./store/tickets";

/** Opens a ticket (act_…) for `providerId` of `app`, in the app's workspace and environment; its id. */
export async function createTicket(
  db: Db,
  app: { id: string; workspaceId: string; environment: TEnvironment },
  providerId: string,
  ticket: TNewTicket,
): Promise<string> {
  const id = newId("act");
  await insertTicket(db, id, app, providerId, ticket);
  return id;
}

/** A ticket of `env` whose app still exists, or 404. */
export async function getTicket(db: Db, env: TEnvironment, ticketId: string): Promise<TTicketWithApp> {
  const ticket = await readTicket(db, ticketId);
  if (!ticket || ticket.environment !== env || ticket.app.deletedAt)
    throw notFound(`Activation ticket "${ticketId}"`);
  return ticket;
}

export function toTicketJson(ticket: TTicketWithApp): TTicketJson {
  const provider = findProvider(ticket.providerId);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: ticket.id,
    status: parseTicketStatus(ticket.status),
    clientId: ticket.appId,
    appName: ticket.app.name,
    workspaceId: ticket.workspaceId,
    environment: ticket.environment,
    providerId: ticket.providerId,
    providerName: provider?.name ?? ticket.providerId,
    activationKind: provider?.activation.kind ?? "registration",
    demo: ticket.demo,
    submitted: parseSubmittedValues(ticket.submitted),
    requestedAt: ticket.requestedAt.toISOString(),
    reviewStartedAt: iso(ticket.reviewStartedAt),
    activatedAt: iso(ticket.activatedAt),
    rejectedAt: iso(ticket.rejectedAt),
    rejectionReason: ticket.rejectionReason,
    reviewerUserId: ticket.reviewerUserId,
  };
}

export interface TTicketMove {
  event: TActivationEvent;
  /** extra ticket fields (timestamps, reason, reviewer) */
  data?: TTicketChange;
  audit: Pick<AuditEntry, "actor" | "requestId"> & {
    action: string;
    data?: Record<string, unknown>;
  };
}

// a missing row answers 404 RESOURCE_NOT_FOUND
const missingRow = () => new ApiError("RESOURCE_NOT_FOUND", "Resource not found");

/** Moves `ticket` in `db`'s transaction; its row as moved. */
export async function moveTicket(db: Db, ticket: TTicketWithApp, move: TTicketMove): Promise<TTicketWithApp> {
  const refuse = (status: string) =>
    stateConflict(
      `Activation ticket ${ticket.id} is ${status}; this needs a ticket in status ${allowedFrom(ACTIVATION_TRANSITIONS, move.event).join(" or ")}`,
      [{ path: "ticket_id", message: `status is ${status}` }],
    );
  const to = transition(ACTIVATION_TRANSITIONS, ticket.status, move.event, refuse);
  if (!(await updateTicketStatus(db, ticket.id, { from: ticket.status, to, change: move.data }))) {
    throw refuse((await readTicketStatus(db, ticket.id)) ?? "gone");
  }
  const activated = to === "activated";
  await mirrorTicketOnProvider(db, ticket, {
    status: to,
    ...(activated
      ? {
          activatedAt: move.data?.activatedAt ?? new Date(),
          enabled: true,
          config: ticket.submitted ?? {},
        }
      : {}),
  });
  await recordAudit(db, {
    ...move.audit,
    workspaceId: ticket.workspaceId,
    environment: ticket.environment,
    targetType: "activation_ticket",
    targetId: ticket.id,
    data: {
      clientId: ticket.appId,
      providerId: ticket.providerId,
      from: ticket.status,
      to,
      ...move.audit.data,
    },
  });
  const moved = await readTicket(db, ticket.id);
  if (!moved) throw missingRow();
  return moved;
}
