-- Issue 28 (OpenID Provider for regulated integrators): per-app client settings, DPoP bindings,
-- pushed authorization requests and the one-time value cache (client assertion and DPoP jti).
ALTER TABLE "apps"
    ADD COLUMN "token_endpoint_auth_method" TEXT NOT NULL DEFAULT 'client_secret_basic',
    ADD COLUMN "jwks" JSONB,
    ADD COLUMN "jwks_uri" TEXT,
    ADD COLUMN "require_pushed_authorization_requests" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "require_dpop" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "oidc_profile" TEXT NOT NULL DEFAULT 'default',
    ADD CONSTRAINT "apps_token_endpoint_auth_method_check"
        CHECK ("token_endpoint_auth_method" IN ('client_secret_basic', 'client_secret_post', 'private_key_jwt')),
    ADD CONSTRAINT "apps_oidc_profile_check" CHECK ("oidc_profile" IN ('default', 'fapi2')),
    ADD CONSTRAINT "apps_client_keys_check" CHECK ("jwks" IS NULL OR "jwks_uri" IS NULL);

ALTER TABLE "oidc_authorization_requests" ADD COLUMN "dpop_jkt" TEXT;
ALTER TABLE "authorization_codes" ADD COLUMN "dpop_jkt" TEXT;
ALTER TABLE "oidc_access_tokens" ADD COLUMN "dpop_jkt" TEXT;

CREATE TABLE "oidc_pushed_requests" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "params" JSONB NOT NULL,
    "dpop_jkt" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),

    CONSTRAINT "oidc_pushed_requests_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "oidc_pushed_requests_expires_at_idx" ON "oidc_pushed_requests"("expires_at");

CREATE TABLE "oidc_replay" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "oidc_replay_pkey" PRIMARY KEY ("scope", "key")
);
CREATE INDEX "oidc_replay_expires_at_idx" ON "oidc_replay"("expires_at");
