import * as api from "@/lib/activation/endpoints";
import { getTicketDetail } from "@/lib/activation/review";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(api.getActivationTicket, async ({ db, env, params }) =>
  json(200, await getTicketDetail(db, env, params.ticketId!)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
