-- Issue 24 (SAML adapter): the IDs of the assertions SAML identity providers issued and a sign-in
-- accepted, per issuing entity, kept until the assertion's own expiry so that the same assertion
-- posted again is refused (replay). Expired rows are purged in bounded batches.
CREATE TABLE "saml_assertion_ids" (
    "idp_entity_id" TEXT NOT NULL,
    "assertion_id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "saml_assertion_ids_pkey" PRIMARY KEY ("idp_entity_id","assertion_id")
);

CREATE INDEX "saml_assertion_ids_expires_at_idx" ON "saml_assertion_ids"("expires_at");
