-- Issue 24 (item 4): the health of a connection. Per connection and 5-minute bucket, the
-- sign-ins that reached its upstream: how many, how many failed for an upstream fault (not a
-- person cancelling or failing authentication), the upstream latency (sum, maximum and a
-- histogram of fixed bounds, lib/connections/health.ts LATENCY_BOUNDS_MS). No personal data and
-- no ids of people or sessions. Written by one upsert per sign-in, read for the last hour and
-- day, purged after two days, deleted with the connection.
CREATE TABLE "provider_connection_health" (
    "connection_id" TEXT NOT NULL,
    "bucket_start" TIMESTAMP(3) NOT NULL,
    "sign_ins" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "latency_sum_ms" BIGINT NOT NULL DEFAULT 0,
    "latency_max_ms" INTEGER NOT NULL DEFAULT 0,
    "latency_histogram" INTEGER[],

    CONSTRAINT "provider_connection_health_pkey" PRIMARY KEY ("connection_id","bucket_start")
);

CREATE INDEX "provider_connection_health_bucket_start_idx" ON "provider_connection_health"("bucket_start");

ALTER TABLE "provider_connection_health" ADD CONSTRAINT "provider_connection_health_connection_id_fkey"
    FOREIGN KEY ("connection_id") REFERENCES "provider_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Upstream faults of sign-ins in a row since the last success (a success or a successful check
-- resets it). At FAILING_AFTER (3) the connection is marked failing (last_error, last_error_at).
ALTER TABLE "provider_connections" ADD COLUMN "failure_streak" INTEGER NOT NULL DEFAULT 0;
