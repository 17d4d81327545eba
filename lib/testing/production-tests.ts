/** Test helpers for production tests: requests through the API, participations through the model. */
import { kysely } from "../db/client";
import { claimStamp, recordParticipation } from "../production-tests/participation";
import { bearer, call } from "./router";
import { inTransaction } from "../db/kysely";

type Env = "sandbox" | "production";

export async function requestProductionTest(
  key: string,
  clientId: string,
  env: Env = "sandbox",
  body: Record<string, unknown> = {},
) {
  const res = await call("POST", `/api/${env}/v1/apps/${clientId}/production-tests`, {
    headers: bearer(key),
    body: { title: "Launch test", providerIds: ["passport"], maxStampClaims: 3, ...body },
  });
  if (res.status !== 201) throw new Error(`requesting a production test failed: ${res.status} ${res.text}`);
  return res.body as { type: "request"; request: { id: string; [k: string]: unknown } };
}

export async function scheduleProductionTest(
  operatorKey: string,
  requestId: string,
  env: Env = "sandbox",
  body: Record<string, unknown> = {},
) {
  const res = await call("POST", `/api/${env}/v1/operator/production-tests/${requestId}/schedule`, {
    headers: bearer(operatorKey),
    body,
  });
  if (res.status !== 200) throw new Error(`scheduling failed: ${res.status} ${res.text}`);
  return res.body as { type: "challenge"; challenge: { id: string; [k: string]: unknown } };
}

/** Records one attempt (each in its own transaction, as the verification flow will) and optionally claims. */
export async function participate(
  challengeId: string,
  { providerId = "passport", successful = true, claim = false, verificationId = null as string | null } = {},
) {
  const recorded = await inTransaction(kysely(), (tx) =>
    recordParticipation(tx, { challengeId, providerId, successful, verificationId }),
  );
  if (!recorded.ok) throw new Error(`participation refused: ${recorded.reason}`);
  const claimed = claim
    ? await inTransaction(kysely(), (tx) => claimStamp(tx, recorded.participation.id))
    : undefined;
  return { participation: recorded.participation, claimed };
}
