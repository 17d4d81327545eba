import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/team/endpoints";
import { signOutEverywhereAsOperator } from "@/lib/team/me";

export const POST = withApi(endpoints.signOutEverywhereAsOperator, async ({ db, auth, requestId }) =>
  json(200, await signOutEverywhereAsOperator(db, auth, requestId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
