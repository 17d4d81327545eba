import { json, otherMethods, withApi } from "@/lib/http/api";
import { listAppProviders } from "@/lib/providers/endpoints";
import { listAppProviders as list, parseInclude } from "@/lib/providers/app-providers";

// `include` may repeat; the parsed query keeps only the last value, so read them all from the URL
export const GET = withApi(listAppProviders, async ({ db, auth, params, url, query }) =>
  json(200, await list(db, auth, params.clientId!, parseInclude(url), query.scope)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
