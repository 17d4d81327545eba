-- Issue 15: a delivery row is the queue entry of its next attempt (lib/webhooks/delivery-queue.ts),
-- no longer one graphile-worker job per attempt. queued_trigger is the trigger of the queued
-- attempt (automatic or manual), null while none is queued (being sent, finished, or lost).
-- The default queues every new delivery for its first automatic attempt, in the statement that
-- inserts it (the transactional outbox of lib/webhooks/events.ts needs no job of its own).
ALTER TABLE "webhook_deliveries" ADD COLUMN "queued_trigger" TEXT;
ALTER TABLE "webhook_deliveries" ALTER COLUMN "queued_trigger" SET DEFAULT 'automatic';

-- Pending deliveries of before: queued here, with the trigger the sweeper would infer (their
-- graphile-worker jobs, still run by the webhook_deliver task, then find them queued).
UPDATE "webhook_deliveries" d
   SET "queued_trigger" = CASE
         WHEN d."delivered_at" IS NOT NULL OR EXISTS (
           SELECT 1 FROM "webhook_delivery_attempts" a WHERE a."delivery_id" = d."id" AND a."trigger" = 'manual')
         THEN 'manual' ELSE 'automatic' END,
       "next_attempt_at" = COALESCE(d."next_attempt_at", (now() AT TIME ZONE 'UTC'))
 WHERE d."status" = 'pending' AND (d."lease_until" IS NULL OR d."lease_until" < (now() AT TIME ZONE 'UTC'));

-- The dispatcher's claim reads the queued deliveries by due time. Partial index: not expressible
-- in schema.prisma, keep it in any later migration diff.
CREATE INDEX "webhook_deliveries_queued_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "queued_trigger" IS NOT NULL;

-- A queued delivery wakes the dispatchers of every instance when its transaction commits
-- (LISTEN idv_webhook_queue, lib/webhooks/delivery-dispatcher.ts). PostgreSQL sends one
-- notification per transaction however many rows fire it. The function body is an E'' string
-- whose statement terminators are written \073, because the migration runner splits this file at
-- every semicolon character.
CREATE FUNCTION "idv_notify_webhook_queue"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN PERFORM pg_notify(''idv_webhook_queue'', '''')\073 RETURN NULL\073 END';

CREATE TRIGGER "webhook_deliveries_queued"
  AFTER INSERT OR UPDATE OF "queued_trigger" ON "webhook_deliveries"
  FOR EACH ROW WHEN (NEW."queued_trigger" IS NOT NULL)
  EXECUTE FUNCTION "idv_notify_webhook_queue"();
