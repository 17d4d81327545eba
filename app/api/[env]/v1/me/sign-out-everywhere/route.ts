import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/team/endpoints";
import { signOutEverywhere } from "@/lib/team/me";

export const POST = withApi(endpoints.signOutEverywhere, async ({ db, auth, requestId }) =>
  json(200, await signOutEverywhere(db, auth, requestId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
