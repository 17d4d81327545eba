-- Issue 15: a NOTIFY makes its transaction take a database-wide lock from before its commit until
-- after it, so every session creation that queued a delivery committed one at a time (most of the
-- waits of POST /v1/verifications under load were on that lock). A writer whose own process runs
-- a webhook dispatcher now says so for its transaction (set_config('idv.webhook_wake', 'local',
-- true), lib/webhooks/wake.ts) and wakes that dispatcher itself once the transaction has
-- committed. The trigger notifies the other instances for every other writer, as before. The
-- function body is an E'' string whose statement terminators are written \073, because the
-- migration runner splits this file at every semicolon character.
CREATE OR REPLACE FUNCTION "idv_notify_webhook_queue"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN IF current_setting(''idv.webhook_wake'', true) IS DISTINCT FROM ''local'' THEN PERFORM pg_notify(''idv_webhook_queue'', '''')\073 END IF\073 RETURN NULL\073 END';
