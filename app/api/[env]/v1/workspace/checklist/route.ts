import { json, otherMethods, withApi } from "@/lib/http/api";
import { getChecklist } from "@/lib/onboarding/checklist";
import * as endpoints from "@/lib/onboarding/endpoints";

export const GET = withApi(endpoints.getChecklist, async ({ db, auth }) =>
  json(200, await getChecklist(db, auth)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
