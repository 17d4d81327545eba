/**
 * The background step of sandbox demo activations: about a second after a `demo: true`
 * submission, the ticket moves activation_processing → activated. Runs in its own transaction;
 * if the ticket was moved meanwhile (e.g. an operator rejected it) nothing happens, so retries
 * and duplicate jobs are harmless.
 */
import { z } from "zod";
import { getDb } from "../db/client";
import { ApiError } from "../http/errors";
import { logger } from "../log";
import { moveTicket } from "./tickets";

const ZPayload = z.object({ ticketId: z.string() });

export async function completeDemoActivation(payload: unknown): Promise<void> {
  const parsed = ZPayload.safeParse(payload);
  if (!parsed.success) {
    logger.warn({ payload }, "activation.complete_demo: malformed payload, dropped");
    return;
  }
  const { ticketId } = parsed.data;
  await getDb().$transaction(async (tx) => {
    const ticket = await tx.activationTicket.findUnique({
      where: { id: ticketId },
      include: { app: { select: { id: true, name: true, deletedAt: true } } },
    });
    if (!ticket || !ticket.demo || ticket.status !== "activation_processing") return;
    try {
      await moveTicket(tx, ticket, {
        event: "complete_demo",
        data: { activatedAt: new Date() },
        audit: { actorType: "system", action: "activation.demo_completed" },
      });
    } catch (err) {
      // moved by someone else between our read and our update: their move stands
      if (!(err instanceof ApiError)) throw err;
    }
  });
}
