import { kysely } from "@/lib/db/client";
import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/verifications/endpoints";
import { toStatusRecord } from "@/lib/verifications/read";
import { simulateVerification } from "@/lib/verifications/sandbox";

// the endpoint runs without the request transaction: the simulation has its own (sandbox.ts)
export const POST = withApi(endpoints.simulateVerification, async ({ auth, body, params }) => {
  return json(200, toStatusRecord(await simulateVerification(kysely(), auth, params.verificationId, body)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
