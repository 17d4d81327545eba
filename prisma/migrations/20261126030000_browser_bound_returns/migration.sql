-- Issue 12 (items 2, 7): sign-in returns bound to the browser, and a per-client PKCE requirement.
-- (No semicolons in comments: the migration runner splits the script on them.)

-- OpenID Provider: existing apps keep PKCE optional, new apps are created with true (lib/apps/service.ts)
ALTER TABLE "apps" ADD COLUMN "pkce_required" BOOLEAN NOT NULL DEFAULT false;

-- the hosted pages' browser binding and the REST hosted return (answered once)
ALTER TABLE "verifications" ADD COLUMN "browser_binding_hash" TEXT;
ALTER TABLE "verifications" ADD COLUMN "returned_at" TIMESTAMP(3);

-- sessions started by the OpenID Provider return through it only, never the REST way (also once
-- their request is purged), and their creation events wait for the end-user's first action
ALTER TABLE "verifications" ADD COLUMN "via_oidc_provider" BOOLEAN NOT NULL DEFAULT false;
UPDATE "verifications" SET "via_oidc_provider" = true
 WHERE "id" IN (SELECT "verification_id" FROM "oidc_authorization_requests" WHERE "verification_id" IS NOT NULL);

-- the OIDC resume token, the hash of the cookie /auth set, the one-time hand-off to the hosted page
-- and the hash of the proof the hosted page's browser carries to the resume. Requests stored
-- before this have none and can no longer be resumed (their sessions expire).
ALTER TABLE "oidc_authorization_requests" ADD COLUMN "resume_token" TEXT;
ALTER TABLE "oidc_authorization_requests" ADD COLUMN "browser_binding_hash" TEXT;
ALTER TABLE "oidc_authorization_requests" ADD COLUMN "handoff_hash" TEXT;
ALTER TABLE "oidc_authorization_requests" ADD COLUMN "resume_proof_hash" TEXT;
CREATE UNIQUE INDEX "oidc_authorization_requests_resume_token_key" ON "oidc_authorization_requests"("resume_token");
