import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/team/endpoints";
import { getMe } from "@/lib/team/me";

export const GET = withApi(endpoints.getMe, async ({ db, auth }) => json(200, await getMe(db, auth)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
