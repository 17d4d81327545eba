-- A client secret rotation revokes the app's outstanding access tokens.
CREATE INDEX "oidc_access_tokens_app_id_idx" ON "oidc_access_tokens"("app_id");
