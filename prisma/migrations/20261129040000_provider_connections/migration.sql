-- Issue 24 (item 1): a connection binds one catalog provider, in one environment, to a production
-- adapter (oidc, wallet, later saml and others) with its settings. Non-secret settings are JSON,
-- secrets (an OIDC client secret) are sealed with the master key (lib/crypto/encryption.ts) as one
-- JSON object, never returned by the API. The state fields record the last check or sign-in
-- outcome (no personal data). Managed through the Operator API (lib/connections).
CREATE TABLE "provider_connections" (
    "id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "provider_id" TEXT NOT NULL,
    "adapter" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "secrets_encrypted" TEXT,
    "last_error" TEXT,
    "last_error_at" TIMESTAMP(3),
    "last_success_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "provider_connections_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "provider_connections_environment_provider_id_key" ON "provider_connections"("environment", "provider_id");
