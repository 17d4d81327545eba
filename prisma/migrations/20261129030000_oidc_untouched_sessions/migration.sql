-- Issue 23 (item 9): a session the OpenID Provider started for an anonymous /auth request is
-- "untouched" until its end-user acts on it (its first move, when its creation events are
-- written). Untouched sessions are not listed in the verification log, not counted in the
-- statistics, and each app may have only so many of them per hour (IDV_OIDC_UNTOUCHED_LIMIT).
-- The default makes every existing row listed without rewriting the table.
ALTER TABLE "verifications" ADD COLUMN "untouched" BOOLEAN NOT NULL DEFAULT false;

-- Existing sessions of the OpenID Provider that nobody acted on: the ones without any event
-- (their creation events are written at the first action, and one that expired untouched has none).
UPDATE "verifications" v
   SET "untouched" = true
 WHERE v."via_oidc_provider"
   AND NOT EXISTS (SELECT 1 FROM "verification_events" e WHERE e."verification_id" = v."id");

-- The cap's count (lib/oidc/provider/untouched.ts) and the purge of ended untouched sessions
-- (lib/oidc/purge.ts) read only untouched rows: a small partial index, which the Prisma schema
-- cannot express (a diff will try to drop it: keep it).
CREATE INDEX "verifications_untouched_app_id_created_at_idx" ON "verifications"("app_id", "created_at") WHERE "untouched";
