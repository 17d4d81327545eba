-- Issue 12 (17): a first attempt waits for the earlier events of its session, found through
-- verification_events (verification_id, seq) and then the deliveries of those events.
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- Issue 12 (15): attempt errors shown to tenants no longer carry Node's messages, which name the
-- address a host resolved to ("connect ECONNREFUSED 10.0.0.5:443"). Errors stored before are
-- rewritten to the texts lib/webhooks/delivery.ts uses now (texts already in that vocabulary are
-- left alone, so the statements can run twice). No semicolons in comments or strings here: the
-- migration engine splits statements on them.
UPDATE "webhook_delivery_attempts" SET "error" = CASE
    WHEN "error" LIKE 'connection to % refused: private, loopback, link-local and reserved addresses are not allowed'
      OR "error" LIKE 'getaddrinfo ENOTFOUND %' OR "error" LIKE 'getaddrinfo ENODATA %'
      THEN 'host not found or not allowed: the host name must resolve to public addresses only'
    WHEN "error" LIKE 'getaddrinfo EAI_AGAIN %' THEN 'host name lookup failed temporarily'
    WHEN "error" LIKE 'connect ECONNREFUSED %' THEN 'connection refused'
    WHEN "error" LIKE 'connect ETIMEDOUT %' THEN 'connection timed out'
    WHEN "error" LIKE 'connect EHOSTUNREACH %' OR "error" LIKE 'connect ENETUNREACH %' THEN 'host unreachable'
    ELSE 'connection failed'
  END
WHERE "error" IS NOT NULL
  AND "error" !~ '^(receiver answered HTTP |redirect \(HTTP |timed out after |invalid webhook URL$|unsupported URL scheme |the signing secret could not be decrypted|the app|connection refused$|connection timed out$|connection closed by the receiver before it answered$|connection failed|host unreachable$|host name lookup failed temporarily$|host not found or not allowed: |destination not allowed: |TLS )';

UPDATE "webhook_deliveries" SET "last_error" = CASE
    WHEN "last_error" LIKE 'connection to % refused: private, loopback, link-local and reserved addresses are not allowed'
      OR "last_error" LIKE 'getaddrinfo ENOTFOUND %' OR "last_error" LIKE 'getaddrinfo ENODATA %'
      THEN 'host not found or not allowed: the host name must resolve to public addresses only'
    WHEN "last_error" LIKE 'getaddrinfo EAI_AGAIN %' THEN 'host name lookup failed temporarily'
    WHEN "last_error" LIKE 'connect ECONNREFUSED %' THEN 'connection refused'
    WHEN "last_error" LIKE 'connect ETIMEDOUT %' THEN 'connection timed out'
    WHEN "last_error" LIKE 'connect EHOSTUNREACH %' OR "last_error" LIKE 'connect ENETUNREACH %' THEN 'host unreachable'
    ELSE 'connection failed'
  END
WHERE "last_error" IS NOT NULL
  AND "last_error" !~ '^(receiver answered HTTP |redirect \(HTTP |timed out after |invalid webhook URL$|unsupported URL scheme |the signing secret could not be decrypted|the app|connection refused$|connection timed out$|connection closed by the receiver before it answered$|connection failed|host unreachable$|host name lookup failed temporarily$|host not found or not allowed: |destination not allowed: |TLS )';
