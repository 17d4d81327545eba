-- Issue 24 (back-office test sign-in through a saml connection): the hand-off of a test sign-in
-- whose answer is the IdP's cross-site form post, kept here under a short random RelayState
-- (`t.` + 32 random characters: SAML Bindings §3.4.3/§3.5.3 allow 80 bytes, the sealed hand-off
-- is a few hundred). `id` is the SHA-256 of the RelayState, `hand_off_sealed` the
-- hand-off (the operator's user and session ids, the request's state, its expiry) sealed with
-- the master key: no personal data, no claims. Single use (the ACS deletes it as it reads it),
-- 10 minutes, expired rows are purged hourly.
CREATE TABLE "connection_test_hand_offs" (
    "id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "provider_id" TEXT NOT NULL,
    "hand_off_sealed" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "connection_test_hand_offs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "connection_test_hand_offs_expires_at_idx" ON "connection_test_hand_offs"("expires_at");
