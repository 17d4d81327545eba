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
import type { Tx } from "../db/client";
import type { ActivationTicket, App, Prisma } from "../db/generated/client";
import type { TEnvironment } from "../environments";
import { notFound } from "../errors";
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

export type TicketWithApp = ActivationTicket & { app: Pick<App, "id" | "name" | "deletedAt"> };

const withApp = { app: { select: { id: true, name: true, deletedAt: true } } } as const;

/** What a new ticket records beyond the app and the provider it is for. */
type TNewTicket = Omit<
  Prisma.ActivationTicketUncheckedCreateInput,
  "id" | "appId" | "workspaceId" | "environment" | "providerId"
>;

/** Opens a ticket (act_…) for `providerId` of `app`, in the app's workspace and environment; its id. */
export async function createTicket(
  db: Tx,
  app: Pick<App, "id" | "workspaceId" | "environment">,
  providerId: string,
  ticket: TNewTicket,
): Promise<string> {
  const id = newId("act");
  await db.activationTicket.create({
    data: {
      id,
      appId: app.id,
      workspaceId: app.workspaceId,
      environment: app.environment,
      providerId,
      ...ticket,
    },
  });
  return id;
}

/** A ticket of `env` whose app still exists, or 404. */
export async function getTicket(db: Tx, env: TEnvironment, ticketId: string): Promise<TicketWithApp> {
  const ticket = await db.activationTicket.findUnique({ where: { id: ticketId }, include: withApp });
  if (!ticket || ticket.environment !== env || ticket.app.deletedAt)
    throw notFound(`Activation ticket "${ticketId}"`);
  return ticket;
}

export function toTicketJson(ticket: TicketWithApp): TTicketJson {
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
  data?: {
    reviewStartedAt?: Date;
    activatedAt?: Date;
    rejectedAt?: Date;
    rejectionReason?: string;
    reviewerUserId?: string;
  };
  audit: Pick<AuditEntry, "actor" | "requestId"> & {
    action: string;
    data?: Record<string, unknown>;
  };
}

export async function moveTicket(db: Tx, ticket: TicketWithApp, move: TTicketMove): Promise<TicketWithApp> {
  const refuse = (status: string) =>
    stateConflict(
      `Activation ticket ${ticket.id} is ${status}; this needs a ticket in status ${allowedFrom(ACTIVATION_TRANSITIONS, move.event).join(" or ")}`,
      [{ path: "ticket_id", message: `status is ${status}` }],
    );
  const to = transition(ACTIVATION_TRANSITIONS, ticket.status, move.event, refuse);
  const { count } = await db.activationTicket.updateMany({
    where: { id: ticket.id, status: ticket.status },
    data: { status: to, ...move.data },
  });
  if (count === 0) {
    const now = await db.activationTicket.findUnique({ where: { id: ticket.id }, select: { status: true } });
    throw refuse(now?.status ?? "gone");
  }
  const activated = to === "activated";
  await db.appProvider.updateMany({
    where: { appId: ticket.appId, providerId: ticket.providerId, currentTicketId: ticket.id },
    data: {
      status: to,
      ...(activated
        ? { activatedAt: move.data?.activatedAt ?? new Date(), enabled: true, config: ticket.submitted ?? {} }
        : {}),
    },
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
  return db.activationTicket.findUniqueOrThrow({ where: { id: ticket.id }, include: withApp });
}
