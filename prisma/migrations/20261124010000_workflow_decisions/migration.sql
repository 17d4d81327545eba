-- CreateTable
CREATE TABLE "workflow_cases" (
    "id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "identity_id" TEXT NOT NULL,
    "expected_outcome" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflow_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_decisions" (
    "verification_id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "workflow_version" INTEGER,
    "provider_id" TEXT NOT NULL,
    "verification_node_id" TEXT NOT NULL,
    "loa" INTEGER,
    "claims_present" TEXT[],
    "match" JSONB,
    "facts" JSONB NOT NULL DEFAULT '{}',
    "outcome" TEXT NOT NULL,
    "reason_code" TEXT,
    "path" TEXT[],
    "decided_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "verification_decisions_pkey" PRIMARY KEY ("verification_id")
);

-- CreateIndex
CREATE INDEX "workflow_cases_workflow_id_created_at_idx" ON "workflow_cases"("workflow_id", "created_at");

-- CreateIndex
CREATE INDEX "verification_decisions_app_id_decided_at_idx" ON "verification_decisions"("app_id", "decided_at");

-- AddForeignKey
ALTER TABLE "workflow_cases" ADD CONSTRAINT "workflow_cases_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "verification_decisions" ADD CONSTRAINT "verification_decisions_verification_id_fkey" FOREIGN KEY ("verification_id") REFERENCES "verifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

