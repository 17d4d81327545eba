/**
 * The status record's read of a session, by id, as one JSON object: read in the app credential's
 * own statement (GET /v1/verifications/{id}, polled: lib/verifications/read.ts
 * `statusRowWithCredential`, lib/auth/app-credentials.ts `defineAppRowRead`). Timestamps in
 * epoch milliseconds (lib/db/timestamps.ts).
 */
import { jsonBuildObject } from "kysely/helpers/postgres";
import type { Db } from "../../db/kysely";
import { epochMs, epochMsOrNull } from "../../db/timestamps";

/** The columns of the status record and the owner's, of session `id` (null: none). */
export function statusRowById(db: Db, id: string) {
  return db
    .selectFrom("verifications")
    .select((eb) =>
      jsonBuildObject({
        id: eb.ref("id"),
        appId: eb.ref("appId"),
        environment: eb.ref("environment"),
        status: eb.ref("status"),
        providerId: eb.ref("providerId"),
        workflowId: eb.ref("workflowId"),
        flowType: eb.ref("flowType"),
        loa: eb.ref("loa"),
        statusReason: eb.ref("statusReason"),
        createdAtMs: epochMs(eb.ref("createdAt")),
        expiresAtMs: epochMs(eb.ref("expiresAt")),
        verifiedAtMs: epochMsOrNull(eb.ref("verifiedAt")),
      }).as("row"),
    )
    .where("id", "=", id)
    .$asScalar();
}
