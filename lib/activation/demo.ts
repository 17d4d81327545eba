/**
 * The background step of sandbox demo activations: about a second after a `demo: true`
 * submission, the ticket moves activation_processing → activated. Runs in its own transaction;
 * if the ticket was moved meanwhile (e.g. an operator rejected it) nothing happens, so retries
 * and duplicate jobs are harmless.
 */
import { SYSTEM_ACTOR } from "../auth/actor";
import { kysely } from "../db/client";
import { ApiError } from "../errors";
import type { TCompleteDemoActivationPayload } from "../jobs/definitions";
import { readTicket } from "./store/tickets";
import { moveTicket } from "./tickets";
import { inTransaction } from "../db/kysely";

/** The `activation.complete_demo` job (lib/jobs/definitions.ts). */
export async function completeDemoActivation({ ticketId }: TCompleteDemoActivationPayload): Promise<void> {
  await inTransaction(kysely(), async (tx) => {
    const ticket = await readTicket(tx, ticketId);
    if (!ticket || !ticket.demo || ticket.status !== "activation_processing") return;
    try {
      await moveTicket(tx, ticket, {
        event: "complete_demo",
        data: { activatedAt: new Date() },
        audit: { actor: SYSTEM_ACTOR, action: "activation.demo_completed" },
      });
    } catch (err) {
      // moved by someone else between our read and our update: their move stands
      if (!(err instanceof ApiError)) throw err;
    }
  });
}
