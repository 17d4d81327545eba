import * as endpoints from "@/lib/connections/endpoints";
import { deleteConnection, getConnection, putConnectionFetching } from "@/lib/connections/service";
import { kysely } from "@/lib/db/client";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.getConnection, async ({ db, env, params }) =>
  json(200, await getConnection(db, env, params.providerId)),
);

// transaction: false (the definition): the service fetches a saml metadataUrl, then writes in its own
export const PUT = withApi(endpoints.putConnection, async ({ auth, env, params, body, requestId }) => {
  const { created, connection } = await putConnectionFetching(
    kysely(),
    { auth, env, requestId },
    params.providerId,
    body,
  );
  return json(created ? 201 : 200, connection);
});

export const DELETE = withApi(endpoints.deleteConnection, async ({ db, auth, env, params, requestId }) => {
  await deleteConnection(db, { auth, env, requestId }, params.providerId);
  return json(204);
});

export const { POST, PATCH, OPTIONS } = otherMethods({ GET, PUT, DELETE });
