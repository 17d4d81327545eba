/**
 * The `connection_test_hand_offs` rows on the data layer (lib/db/kysely.ts): a SAML test sign-in's
 * hand-off kept under its RelayState's key, taken once, purged when it expired unanswered.
 * ../test-sign-in-hand-offs.ts has the rules (the key, the sealing, the expiry check).
 */
import { prepared, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";

/** Keeps a sealed hand-off under `id` until `expiresAt`. */
export async function insertHandOff(
  db: Db,
  values: {
    id: string;
    environment: TEnvironment;
    providerId: string;
    handOffSealed: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insertInto("connectionTestHandOffs").values(values).execute();
}

const TAKE = prepared(
  "connections_take_hand_off",
  (db, p: { id: string; environment: TEnvironment; providerId: string }) =>
    db
      .deleteFrom("connectionTestHandOffs")
      .where("id", "=", p.id)
      .where("environment", "=", p.environment)
      .where("providerId", "=", p.providerId)
      .returning("handOffSealed"),
);

/**
 * Deletes the hand-off `id` of `providerId` in `environment` and returns it sealed (single use:
 * of two concurrent takes one gets it); undefined when there is none.
 */
export async function takeHandOffRow(
  db: Db,
  id: string,
  at: { environment: TEnvironment; providerId: string },
): Promise<string | undefined> {
  const [row] = await TAKE.run(db, { id, ...at });
  return row?.handOffSealed;
}

/** Deletes at most `limit` hand-offs that expired before `before`; how many went. */
export async function deleteExpiredHandOffs(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("connectionTestHandOffs")
    .where("id", "in", (eb) =>
      eb.selectFrom("connectionTestHandOffs").select("id").where("expiresAt", "<", before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
