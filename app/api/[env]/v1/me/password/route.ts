import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/team/endpoints";
import { changePassword } from "@/lib/team/me";

export const POST = withApi(endpoints.changePassword, async ({ db, auth, body, requestId }) =>
  json(200, await changePassword(db, auth, body, requestId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
