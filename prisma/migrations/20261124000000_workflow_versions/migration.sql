-- AlterTable
ALTER TABLE "workflows" ADD COLUMN     "positions" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "verifications" ADD COLUMN     "workflow_version" INTEGER;

-- CreateTable
CREATE TABLE "workflow_versions" (
    "workflow_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "entry_node_id" TEXT NOT NULL,
    "nodes" JSONB NOT NULL,
    "positions" JSONB NOT NULL DEFAULT '{}',
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "restored_from" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflow_versions_pkey" PRIMARY KEY ("workflow_id","version")
);

-- AddForeignKey
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Backfill: every existing workflow gets version 1 from its current content, saved by the system
-- when that content was last written (updated_at).
INSERT INTO "workflow_versions" ("workflow_id", "version", "name", "entry_node_id", "nodes", "positions", "actor_type", "actor_id", "created_at")
SELECT "id", 1, "name", "entry_node_id", "nodes", "positions", 'system', NULL, "updated_at"
FROM "workflows";

-- Sessions created after their workflow's last change ran that content, which is now version 1;
-- older sessions ran content no longer known and keep NULL.
UPDATE "verifications" AS v
SET "workflow_version" = 1
FROM "workflows" AS w
WHERE v."workflow_id" = w."id" AND v."created_at" >= w."updated_at";
