import { z } from "zod";
import { json, withApi } from "@/lib/http/api";
import { APP_PROVIDER_STATUSES, listProvidersForApp } from "@/lib/providers/app-listing";

const ZQuery = z.object({
  status: z
    .enum(APP_PROVIDER_STATUSES, { error: `must be one of: ${APP_PROVIDER_STATUSES.join(", ")}` })
    .optional(),
});

export const GET = withApi({ auth: "app", query: ZQuery }, async ({ db, auth, query }) =>
  json(200, await listProvidersForApp(db, auth, query.status)),
);
