import * as endpoints from "@/lib/activation/endpoints";
import { getTicketDetail } from "@/lib/activation/review";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.getActivationTicket, async ({ db, env, params }) =>
  json(200, await getTicketDetail(db, env, params.ticketId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
