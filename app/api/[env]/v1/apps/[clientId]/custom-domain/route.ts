import * as endpoints from "@/lib/domains/endpoints";
import { configureCustomDomain, deleteCustomDomain, getCustomDomain } from "@/lib/domains/service";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.getCustomDomain, async ({ db, auth, params }) =>
  json(200, await getCustomDomain(db, auth, params.clientId)),
);

export const PUT = withApi(endpoints.configureCustomDomain, async ({ db, auth, body, params, requestId }) =>
  json(200, await configureCustomDomain(db, { auth, requestId }, params.clientId, body)),
);

export const DELETE = withApi(endpoints.deleteCustomDomain, async ({ db, auth, params, requestId }) =>
  json(200, await deleteCustomDomain(db, { auth, requestId }, params.clientId)),
);

export const { POST, PATCH, OPTIONS } = otherMethods({ GET, PUT, DELETE });
