import { getOwnedApp } from "@/lib/apps/service";
import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/workflows/run-endpoints";
import { testRunDraft } from "@/lib/workflows/test-run";

export const POST = withApi(endpoints.testRunWorkflow, async ({ db, auth, body, params }) => {
  const app = await getOwnedApp(db, auth, params.clientId);
  return json(200, testRunDraft(app, body));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
