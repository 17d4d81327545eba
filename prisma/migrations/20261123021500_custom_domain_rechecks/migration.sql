-- AlterTable
ALTER TABLE "custom_domains" ADD COLUMN     "auto_checks" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "dns_checks" JSONB,
ADD COLUMN     "next_check_at" TIMESTAMP(3),
ADD COLUMN     "pending_since" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "custom_domains_next_check_at_idx" ON "custom_domains"("next_check_at");

-- Domains already waiting for DNS get their automatic re-checks from now on (timestamps are UTC)
UPDATE "custom_domains"
   SET "next_check_at" = (now() AT TIME ZONE 'UTC'),
       "pending_since" = (now() AT TIME ZONE 'UTC')
 WHERE "status" IN ('awaiting_dns', 'verifying');
