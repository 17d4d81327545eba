-- Issue 15: the order of a session's first attempts (lib/webhooks/delivery-order.ts) is checked
-- for every queued delivery a claim passes over. It joined verification_events twice per check,
-- and PostgreSQL ran it as one pass over every pending first attempt per claim (13 ms per claim
-- with a backlog of 1,300). Each delivery of an event now carries its event's session and emission
-- order, so that the check reads only the few deliveries of that session.
ALTER TABLE "webhook_deliveries" ADD COLUMN "verification_id" TEXT;
ALTER TABLE "webhook_deliveries" ADD COLUMN "event_seq" BIGINT;

UPDATE "webhook_deliveries" d
   SET "verification_id" = e."verification_id", "event_seq" = e."seq"
  FROM "verification_events" e
 WHERE e."id" = d."event_id";

-- A session's chain, in order: a handful of rows per session, probed by the claim's check
-- (delivery-order.ts), which is written so that no other index can serve it.
CREATE INDEX "webhook_deliveries_verification_id_event_seq_idx" ON "webhook_deliveries"("verification_id", "event_seq");

-- The transactional outbox (lib/webhooks/events.ts) writes both columns itself. Any other insert of
-- a delivery for an event gets them from the event here. The function body is an E'' string whose
-- statement terminators are written \073, because the migration runner splits this file at every
-- semicolon character.
CREATE FUNCTION "idv_webhook_delivery_chain"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN IF NEW.event_id IS NOT NULL AND NEW.event_seq IS NULL THEN SELECT e.verification_id, e.seq INTO NEW.verification_id, NEW.event_seq FROM verification_events e WHERE e.id = NEW.event_id\073 END IF\073 RETURN NEW\073 END';

CREATE TRIGGER "webhook_deliveries_chain"
  BEFORE INSERT ON "webhook_deliveries"
  FOR EACH ROW EXECUTE FUNCTION "idv_webhook_delivery_chain"();
