/**
 * What the hosted and simulator pages read of a session (lib/hosted/view.ts, start.ts, qr.ts),
 * on the data layer (lib/db/kysely.ts). Every page load and hosted action reads one of these:
 * prepared (named).
 * Rules:
 * - no personal data of the session is read here: only the columns the page shows or routes by;
 * - the page's view is one statement: the session with its app's name and logo and its
 *   workflow's nodes (left joins: a workflow deleted since is no branding, not no page).
 */
import { prepared, type Db } from "../../db/kysely";

const READ_VIEW = prepared("verifications_hosted_view", (db, p: { verificationId: string }) =>
  db
    .selectFrom("verifications as v")
    .leftJoin("apps as a", "a.id", "v.appId")
    .leftJoin("workflows as w", "w.id", "v.workflowId")
    .select([
      "v.id",
      "v.environment",
      "v.status",
      "v.statusReason",
      "v.flowType",
      "v.expiresAt",
      "v.locale",
      "v.providerId",
      "v.verificationNodeId",
      "a.name as appName",
      "a.logo as appLogo",
      "w.nodes as workflowNodes",
    ])
    .where("v.id", "=", p.verificationId),
);

/** Session `id` as its hosted page shows it, with its app's name and logo and its workflow's nodes. */
export async function readHostedView(db: Db, id: string) {
  const [row] = await READ_VIEW.run(db, { verificationId: id });
  return row;
}

const READ_START = prepared("verifications_hosted_start", (db, p: { verificationId: string }) =>
  db
    .selectFrom("verifications")
    .select(["id", "environment", "providerId", "flowType"])
    .where("id", "=", p.verificationId),
);

/** What /verify/{id}/start routes by: the session's id, environment, provider and flow. */
export async function readStartSession(db: Db, id: string) {
  const [row] = await READ_START.run(db, { verificationId: id });
  return row;
}

const READ_ENVIRONMENT = prepared("verifications_hosted_environment", (db, p: { verificationId: string }) =>
  db.selectFrom("verifications").select("environment").where("id", "=", p.verificationId),
);

/** The environment of session `id` (the QR code's address depends on it); undefined: none. */
export async function readSessionEnvironment(db: Db, id: string) {
  const [row] = await READ_ENVIRONMENT.run(db, { verificationId: id });
  return row?.environment;
}
