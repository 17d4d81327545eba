import * as endpoints from "@/lib/apps/endpoints";
import { createApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";

// all-or-nothing: every app is created in the request's one transaction
export const POST = withApi(endpoints.batchCreateApps, async ({ db, auth, body, requestId }) => {
  const data = [];
  for (const input of body.apps) data.push(await createApp(db, { auth, requestId }, { name: input.name }));
  return json(201, { data });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
