import { json, withApi } from "@/lib/http/api";
import * as api from "@/lib/verifications/api";
import { createVerification } from "@/lib/verifications/service";

export const POST = withApi(api.createVerification, async ({ db, auth, body }) =>
  json(201, await createVerification(db, auth, body)),
);
