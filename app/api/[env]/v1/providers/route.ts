import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/providers/endpoints";
import { listProvidersForApp } from "@/lib/providers/app-listing";

export const GET = withApi(endpoints.listAppApiProviders, async ({ db, auth, query }) =>
  json(200, await listProvidersForApp(db, auth, query.status)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
