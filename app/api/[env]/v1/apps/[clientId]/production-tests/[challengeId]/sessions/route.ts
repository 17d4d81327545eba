import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/production-tests/endpoints";
import { startChallengeSession } from "@/lib/production-tests/sessions";

export const POST = withApi(
  endpoints.startChallengeSession,
  async ({ db, auth, body, params, requestId, logVerification }) => {
    const created = await startChallengeSession(
      db,
      { auth, requestId },
      params.clientId,
      params.challengeId,
      body,
    );
    logVerification(created.verificationId);
    return json(201, created);
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
