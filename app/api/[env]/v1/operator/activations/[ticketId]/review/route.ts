import * as endpoints from "@/lib/activation/endpoints";
import { startReview } from "@/lib/activation/review";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const POST = withApi(endpoints.startActivationReview, async ({ db, auth, env, params, requestId }) =>
  json(200, await startReview(db, { auth, env, requestId }, params.ticketId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
