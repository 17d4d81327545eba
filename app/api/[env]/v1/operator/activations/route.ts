import * as endpoints from "@/lib/activation/endpoints";
import { listTickets, recordContractActivation } from "@/lib/activation/review";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.listActivationTickets, async ({ db, env, query }) =>
  json(200, await listTickets(db, env, query)),
);

export const POST = withApi(endpoints.recordContractActivation, async ({ db, auth, env, body, requestId }) =>
  json(201, await recordContractActivation(db, { auth, env, requestId }, body)),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
