import * as endpoints from "@/lib/connections/endpoints";
import { connectionSettingsSchemas } from "@/lib/connections/settings-schema";
import { json, otherMethods, withApi } from "@/lib/http/api";

export const GET = withApi(endpoints.getConnectionSettingsSchemas, async () =>
  json(200, connectionSettingsSchemas()),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
