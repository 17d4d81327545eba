-- AlterTable
ALTER TABLE "app_providers" ADD COLUMN     "current_ticket_id" TEXT;

-- CreateTable
CREATE TABLE "activation_tickets" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "provider_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "submitted" JSONB NOT NULL DEFAULT '{}',
    "demo" BOOLEAN NOT NULL DEFAULT false,
    "requested_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "review_started_at" TIMESTAMP(3),
    "activated_at" TIMESTAMP(3),
    "rejected_at" TIMESTAMP(3),
    "rejection_reason" TEXT,
    "reviewer_user_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "activation_tickets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_domains" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "web_domain" TEXT NOT NULL,
    "oidc_domain" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "required_action" TEXT NOT NULL,
    "status_message" TEXT,
    "dns_records" JSONB NOT NULL,
    "verification_token" TEXT NOT NULL,
    "last_checked_at" TIMESTAMP(3),
    "activated_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "custom_domains_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "production_test_requests" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "payload" JSONB NOT NULL,
    "failure_reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "production_test_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "production_test_challenges" (
    "id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "challenge_mode" TEXT NOT NULL DEFAULT 'stamp',
    "sponsor" JSONB,
    "sources" JSONB,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "completed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "production_test_challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "production_test_participations" (
    "id" TEXT NOT NULL,
    "challenge_id" TEXT NOT NULL,
    "verification_id" TEXT,
    "provider_id" TEXT NOT NULL,
    "successful" BOOLEAN NOT NULL,
    "claimed" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "production_test_participations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "activation_tickets_app_id_provider_id_requested_at_idx" ON "activation_tickets"("app_id", "provider_id", "requested_at");

-- CreateIndex
CREATE INDEX "activation_tickets_status_requested_at_idx" ON "activation_tickets"("status", "requested_at");

-- CreateIndex
CREATE UNIQUE INDEX "custom_domains_app_id_key" ON "custom_domains"("app_id");

-- CreateIndex
CREATE UNIQUE INDEX "custom_domains_web_domain_key" ON "custom_domains"("web_domain");

-- CreateIndex
CREATE UNIQUE INDEX "custom_domains_oidc_domain_key" ON "custom_domains"("oidc_domain");

-- CreateIndex
CREATE INDEX "custom_domains_status_idx" ON "custom_domains"("status");

-- CreateIndex
CREATE INDEX "production_test_requests_app_id_created_at_idx" ON "production_test_requests"("app_id", "created_at");

-- CreateIndex
CREATE INDEX "production_test_requests_status_created_at_idx" ON "production_test_requests"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "production_test_challenges_request_id_key" ON "production_test_challenges"("request_id");

-- CreateIndex
CREATE INDEX "production_test_challenges_app_id_idx" ON "production_test_challenges"("app_id");

-- CreateIndex
CREATE INDEX "production_test_participations_challenge_id_provider_id_idx" ON "production_test_participations"("challenge_id", "provider_id");

-- AddForeignKey
ALTER TABLE "activation_tickets" ADD CONSTRAINT "activation_tickets_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_domains" ADD CONSTRAINT "custom_domains_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "production_test_requests" ADD CONSTRAINT "production_test_requests_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "production_test_challenges" ADD CONSTRAINT "production_test_challenges_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "production_test_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "production_test_participations" ADD CONSTRAINT "production_test_participations_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "production_test_challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

