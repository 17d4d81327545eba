-- CreateTable
CREATE TABLE "verifications" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "provider_id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "verification_node_id" TEXT NOT NULL,
    "flow_type" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "status_reason" TEXT,
    "redirect_uri" TEXT,
    "state" TEXT,
    "locale" TEXT,
    "device_type" TEXT,
    "country_code" TEXT,
    "challenge_id" TEXT,
    "loa" INTEGER,
    "subject" TEXT,
    "match_data_encrypted" TEXT,
    "result_encrypted" TEXT,
    "evidence_encrypted" TEXT,
    "upstream_encrypted" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "verified_at" TIMESTAMP(3),
    "ended_at" TIMESTAMP(3),
    "personal_data_deleted_at" TIMESTAMP(3),

    CONSTRAINT "verifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_events" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "verification_id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "verification_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "event_id" TEXT,
    "event_type" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3),
    "lease_until" TIMESTAMP(3),
    "last_status" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery_attempts" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "attempt_number" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL DEFAULT 'automatic',
    "started_at" TIMESTAMP(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "response_status" INTEGER,
    "error" TEXT,
    "success" BOOLEAN NOT NULL,

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signing_keys" (
    "id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "alg" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "private_jwk_encrypted" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "authorization_codes" (
    "code_hash" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "verification_id" TEXT NOT NULL,
    "redirect_uri" TEXT,
    "code_challenge" TEXT,
    "nonce" TEXT,
    "scope" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "authorization_codes_pkey" PRIMARY KEY ("code_hash")
);

-- CreateIndex
CREATE INDEX "verifications_app_id_created_at_idx" ON "verifications"("app_id", "created_at");

-- CreateIndex
CREATE INDEX "verifications_status_expires_at_idx" ON "verifications"("status", "expires_at");

-- CreateIndex
CREATE INDEX "verifications_ended_at_idx" ON "verifications"("ended_at");

-- CreateIndex
CREATE INDEX "verification_events_verification_id_created_at_idx" ON "verification_events"("verification_id", "created_at");

-- CreateIndex
CREATE INDEX "verification_events_app_id_created_at_idx" ON "verification_events"("app_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_app_id_created_at_idx" ON "webhook_deliveries"("app_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_delivery_attempts_delivery_id_attempt_number_idx" ON "webhook_delivery_attempts"("delivery_id", "attempt_number");

-- CreateIndex
CREATE INDEX "signing_keys_environment_alg_created_at_idx" ON "signing_keys"("environment", "alg", "created_at");

-- CreateIndex
CREATE INDEX "authorization_codes_verification_id_idx" ON "authorization_codes"("verification_id");

-- CreateIndex
CREATE UNIQUE INDEX "production_test_participations_challenge_id_verification_id_key" ON "production_test_participations"("challenge_id", "verification_id");

-- AddForeignKey
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "verification_events" ADD CONSTRAINT "verification_events_verification_id_fkey" FOREIGN KEY ("verification_id") REFERENCES "verifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "verification_events" ADD CONSTRAINT "verification_events_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "verification_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

