import * as endpoints from "@/lib/activation/endpoints";
import { approveTicket } from "@/lib/activation/review";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const POST = withApi(endpoints.approveActivation, async ({ db, auth, env, params, requestId }) =>
  json(200, await approveTicket(db, { auth, env, requestId }, params.ticketId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
