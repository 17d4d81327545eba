-- AlterTable
ALTER TABLE "users" ADD COLUMN     "last_sign_in_at" TIMESTAMP(3),
ADD COLUMN     "sessions_valid_from" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "verifications" ADD COLUMN     "authenticated_at" TIMESTAMP(3),
ADD COLUMN     "started_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "invitations" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "accepted_at" TIMESTAMP(3),
    "accepted_by" TEXT,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_request_logs" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT,
    "environment" "Environment" NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "error_code" TEXT,
    "credential_type" TEXT NOT NULL,
    "credential_id" TEXT,
    "credential_name" TEXT,
    "app_id" TEXT,
    "verification_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_request_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");

-- CreateIndex
CREATE INDEX "invitations_workspace_id_created_at_idx" ON "invitations"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "api_request_logs_workspace_id_environment_created_at_idx" ON "api_request_logs"("workspace_id", "environment", "created_at");

-- CreateIndex
CREATE INDEX "api_request_logs_verification_id_idx" ON "api_request_logs"("verification_id");

-- CreateIndex
CREATE INDEX "api_request_logs_created_at_idx" ON "api_request_logs"("created_at");

-- CreateIndex
CREATE INDEX "audit_events_workspace_id_environment_created_at_idx" ON "audit_events"("workspace_id", "environment", "created_at");

-- CreateIndex
CREATE INDEX "verifications_workspace_id_environment_created_at_idx" ON "verifications"("workspace_id", "environment", "created_at");

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Roles: the former "member" role becomes "developer" (lib/auth/roles.ts)
UPDATE "memberships" SET "role" = 'developer' WHERE "role" NOT IN ('owner', 'admin', 'developer', 'viewer');
