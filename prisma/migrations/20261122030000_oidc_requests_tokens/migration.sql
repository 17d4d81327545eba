-- CreateTable
CREATE TABLE "oidc_authorization_requests" (
    "id" TEXT NOT NULL,
    "verification_id" TEXT,
    "app_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "issuer" TEXT,
    "scope" TEXT NOT NULL,
    "state" TEXT,
    "nonce" TEXT,
    "code_challenge" TEXT,
    "response_mode" TEXT,
    "acr_values" TEXT,
    "min_loa" INTEGER,
    "max_age" INTEGER,
    "prompt" TEXT,
    "ui_locales" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "oidc_authorization_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_access_tokens" (
    "token_hash" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "verification_id" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_access_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE UNIQUE INDEX "oidc_authorization_requests_verification_id_key" ON "oidc_authorization_requests"("verification_id");

-- CreateIndex
CREATE INDEX "oidc_authorization_requests_app_id_created_at_idx" ON "oidc_authorization_requests"("app_id", "created_at");

-- CreateIndex
CREATE INDEX "oidc_access_tokens_code_hash_idx" ON "oidc_access_tokens"("code_hash");

