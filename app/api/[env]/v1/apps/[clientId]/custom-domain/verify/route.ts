import { kysely } from "@/lib/db/client";
import * as endpoints from "@/lib/domains/endpoints";
import { verifyCustomDomain } from "@/lib/domains/service";
import { json, otherMethods, withApi } from "@/lib/http/api";

// the endpoint runs without a request transaction: the service looks DNS up first, then writes
export const POST = withApi(endpoints.verifyCustomDomain, async ({ auth, params, requestId }) =>
  json(200, await verifyCustomDomain(kysely(), { auth, requestId }, params.clientId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
