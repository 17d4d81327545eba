-- Issue 23: a console session's own sign-out is recorded on the server. The session's random id
-- (JWT claim `sid`) is refused by the API and by renewal until the session's absolute end, when
-- the row is deleted again (lib/auth/sessions.ts).
CREATE TABLE "revoked_sessions" (
    "sid" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "revoked_sessions_pkey" PRIMARY KEY ("sid")
);

CREATE INDEX "revoked_sessions_expires_at_idx" ON "revoked_sessions"("expires_at");
