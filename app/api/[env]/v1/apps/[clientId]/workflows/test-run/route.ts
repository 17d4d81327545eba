import { getOwnedApp } from "@/lib/apps/service";
import { ApiError } from "@/lib/errors";
import { json, otherMethods, withApi } from "@/lib/http/api";
import { testRunWorkflow } from "@/lib/workflows/run-endpoints";
import { testRunDraft } from "@/lib/workflows/test-run";

// sandbox only: test identities exist only there
export const POST = withApi(testRunWorkflow, async ({ db, auth, body, params, env, url }) => {
  if (env !== "sandbox") throw new ApiError("ROUTE_NOT_FOUND", `No route for POST ${url.pathname}`);
  const app = await getOwnedApp(db, auth, params.clientId!);
  return json(200, testRunDraft(app, body));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
