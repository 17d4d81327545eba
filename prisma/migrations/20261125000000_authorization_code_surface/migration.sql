-- Authorization codes carry the surface that issued them: "rest" (hosted-page return, redeemed at
-- the REST /token) or "op" (OpenID Provider resume, redeemed at /oidc/{env}/token). Existing codes:
-- the OP's are exactly those bound to a redirect_uri (REST codes are issued without one).
ALTER TABLE "authorization_codes" ADD COLUMN "surface" TEXT NOT NULL DEFAULT 'rest';
UPDATE "authorization_codes" SET "surface" = 'op' WHERE "redirect_uri" IS NOT NULL;
ALTER TABLE "authorization_codes" ALTER COLUMN "surface" DROP DEFAULT;
