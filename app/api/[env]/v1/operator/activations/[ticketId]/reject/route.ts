import * as endpoints from "@/lib/activation/endpoints";
import { rejectTicket } from "@/lib/activation/review";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const POST = withApi(endpoints.rejectActivation, async ({ db, auth, env, body, params, requestId }) =>
  json(200, await rejectTicket(db, { auth, env, requestId }, params.ticketId, body.reason)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
