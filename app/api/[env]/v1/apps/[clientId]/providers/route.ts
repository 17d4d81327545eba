import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/providers/endpoints";
import { listAppProviders, parseInclude } from "@/lib/providers/app-providers";

// `include` may repeat; the parsed query keeps only the last value, so read them all from the URL
export const GET = withApi(endpoints.listAppProviders, async ({ db, auth, params, url, query }) =>
  json(200, await listAppProviders(db, auth, params.clientId, parseInclude(url), query.scope)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
