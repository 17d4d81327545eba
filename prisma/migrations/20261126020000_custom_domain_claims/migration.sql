-- Issue 12 (11): no squatting on custom domains. Only an ACTIVE domain holds its hosts
-- exclusively, several apps may claim a host until one proves ownership in DNS, and claims that
-- are not active expire (claim_expires_at, removed by the custom_domain_recheck job).

-- the hosts stay indexed for the lookups, but are unique only among active domains
DROP INDEX "custom_domains_web_domain_key";
DROP INDEX "custom_domains_oidc_domain_key";
CREATE INDEX "custom_domains_web_domain_idx" ON "custom_domains"("web_domain");
CREATE INDEX "custom_domains_oidc_domain_idx" ON "custom_domains"("oidc_domain");

-- Partial unique indexes: not expressible in schema.prisma, keep them in any later migration diff.
-- (A webDomain equal to another active row's oidcDomain is refused under advisory locks, see
-- lib/domains/claims.ts, these indexes are the backstop for one role.)
CREATE UNIQUE INDEX "custom_domains_active_web_domain_key" ON "custom_domains"("web_domain") WHERE "status" = 'active';
CREATE UNIQUE INDEX "custom_domains_active_oidc_domain_key" ON "custom_domains"("oidc_domain") WHERE "status" = 'active';

-- AlterTable
ALTER TABLE "custom_domains" ADD COLUMN "claim_expires_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "custom_domains_claim_expires_at_idx" ON "custom_domains"("claim_expires_at");

-- Claims already waiting get the full default period from now on (timestamps are UTC)
UPDATE "custom_domains"
   SET "claim_expires_at" = (now() AT TIME ZONE 'UTC') + INTERVAL '7 days'
 WHERE "status" <> 'active';
