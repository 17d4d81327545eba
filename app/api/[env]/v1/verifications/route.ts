import { json, otherMethods, withApi } from "@/lib/http/api";
import * as logEndpoints from "@/lib/verifications/log/endpoints";
import { listWorkspaceVerifications } from "@/lib/verifications/log/service";
import * as endpoints from "@/lib/verifications/endpoints";
import { createVerification } from "@/lib/verifications/create";

export const POST = withApi(endpoints.createVerification, async ({ db, auth, body, logVerification }) => {
  const created = await createVerification(db, auth, body);
  logVerification(created.verificationId);
  return json(201, created);
});

// the workspace's list (console Verifications page); the App API only creates on this path
export const GET = withApi(logEndpoints.listVerifications, async ({ db, auth, query }) =>
  json(200, await listWorkspaceVerifications(db, auth, query)),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
