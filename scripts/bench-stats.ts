// Benchmark of the statistics SQL (GET /v1/stats/verifications) on a large workspace.
//
// Usage:  DATABASE_URL=postgresql://… npx tsx scripts/bench-stats.ts
//         npx tsx scripts/bench-stats.ts      (no DATABASE_URL: a scratch embedded server
//                                              "bench-pg" on port 54360, stopped afterwards)
// Settings: BENCH_ROWS (default 1,000,000 sessions in the measured workspace, created over the
// last 30 days), BENCH_OTHER_ROWS (default 200,000 in another workspace, so the index has to
// pick), BENCH_RUNS (default 5 timed runs per query), BENCH_KEEP=1 keeps the rows.
//
// It migrates the database, inserts the rows with generate_series (one statement per workspace),
// ANALYZEs, then for 24h, 7d and 30d prints the wall time of getVerificationStats (the code the
// endpoint runs: min / median of BENCH_RUNS) and an EXPLAIN (ANALYZE, BUFFERS) summary of its
// statement twice: all live (no rollup rows yet), then after the per-day rollup
// (lib/stats/rollup.ts) has been run to completion (its time printed too), checking that both
// answers are identical; and the same for the first page of GET /v1/verifications (count + 20
// rows).
import { performance } from "node:perf_hooks";
import { createDatabaseIfMissing, migrateDatabase } from "../lib/db/database";
import { sql, type RawBuilder } from "kysely";
import { createDb } from "../lib/db/client";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { newId } from "../lib/ids";
import { isDeepStrictEqual } from "node:util";
import { rollupVerificationStats } from "../lib/stats/rollup";
import { STATS_PERIODS, type TStatsPeriod } from "../lib/stats/endpoints";
import { getVerificationStats, statsWindow, verificationStatsSql } from "../lib/stats/verifications";
import { listWorkspaceVerifications } from "../lib/verifications/log/service";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const OTHER_ROWS = Number(process.env.BENCH_OTHER_ROWS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PROVIDERS = ["passport", "nl_digid", "se_bankid", "de_eid", "fr_franceconnect"];

let stopServer = async () => undefined as void;
let url = process.env.DATABASE_URL;
let scratch = false;
if (!url) {
  const server = await startEmbeddedPostgres("bench-pg", 54360, { durable: false });
  stopServer = server.stop;
  await createDatabaseIfMissing(server.url("postgres"), "idv_bench");
  url = server.url("idv_bench");
  scratch = true;
}
console.log(`database: ${url.replace(/:[^:@/]*@/, ":***@")}${scratch ? " (scratch embedded server)" : ""}`);
await migrateDatabase(url, { quiet: true });
const db = createDb(url, 4);

interface Seeded {
  workspaceId: string;
  appIds: string[];
}

async function makeWorkspace(): Promise<Seeded> {
  const workspaceId = newId("ws");
  const appIds = [newId("app"), newId("app"), newId("app")];
  const now = new Date();
  await db
    .insertInto("workspaces")
    .values({ id: workspaceId, name: "Benchmark workspace", updatedAt: now })
    .execute();
  await db
    .insertInto("apps")
    .values(
      appIds.map((id) => ({
        id,
        workspaceId,
        environment: "sandbox" as const,
        name: `Bench ${id.slice(-4)}`,
        redirectUris: [],
        updatedAt: now,
      })),
    )
    .execute();
  return { workspaceId, appIds };
}

/**
 * Sessions of both workspaces over the last 30 days, inserted in creation order as a live
 * service writes them (so the table is physically ordered by time, the two workspaces
 * interleaved). r1 picks the status, r2 the provider, r4 the durations. Sessions still open are
 * the ones younger than the TTL (15 minutes): older ones have been expired by the expiry job.
 */
async function seed(measured: Seeded, rows: number, other: Seeded, otherRows: number): Promise<void> {
  const started = performance.now();
  await sql`
    INSERT INTO verifications (id, app_id, workspace_id, environment, provider_id, workflow_id,
      verification_node_id, flow_type, channel, status, status_reason, loa, created_at, updated_at,
      expires_at, started_at, authenticated_at, verified_at, ended_at)
    SELECT ws || '_ver_' || g, apps[1 + g % 3], ws, 'sandbox',
           (${PROVIDERS}::text[])[1 + floor(r2 * 5)::int],
           'wf_bench', 'verification', 'qr', 'oidc', s.status,
           CASE s.status WHEN 'failed' THEN 'authentication_failed'
                         WHEN 'cancelled' THEN 'cancelled_by_user'
                         WHEN 'expired' THEN 'session_timed_out' END,
           CASE WHEN s.status = 'completed' THEN 2 END,
           c, c, c + interval '15 minutes',
           CASE WHEN s.status <> 'awaiting_user_action' THEN c + r4 * interval '20 seconds' END,
           CASE WHEN s.status = 'completed' THEN c + r4 * interval '60 seconds' END,
           CASE WHEN s.status = 'completed' THEN c + r4 * interval '90 seconds' END,
           CASE WHEN s.status <> 'awaiting_user_action' THEN c + r4 * interval '90 seconds' END
      FROM (SELECT w.ws, w.apps, g, random() AS r1, random() AS r2, random() AS r4,
                   (now() AT TIME ZONE 'UTC') - random() * interval '30 days' AS c
              FROM (VALUES (${measured.workspaceId}, ${measured.appIds}::text[], ${rows}::int),
                           (${other.workspaceId}, ${other.appIds}::text[], ${otherRows}::int)) AS w(ws, apps, n)
             CROSS JOIN LATERAL generate_series(1, w.n) AS g) x
     CROSS JOIN LATERAL (SELECT CASE WHEN r1 < 0.55 THEN 'completed' WHEN r1 < 0.70 THEN 'failed'
                                     WHEN r1 < 0.80 THEN 'cancelled'
                                     WHEN r1 < 0.95 OR c < (now() AT TIME ZONE 'UTC') - interval '15 minutes'
                                     THEN 'expired'
                                     ELSE 'awaiting_user_action' END AS status) s
     ORDER BY c`.execute(db);
  console.log(
    `inserted ${(rows + otherRows).toLocaleString("en")} sessions (${rows.toLocaleString("en")} in the measured workspace) ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function timed<T>(fn: () => Promise<T>): Promise<{ min: number; median: number; result: T }> {
  const times: number[] = [];
  let result!: T;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    result = await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { min: times[0]!, median: times[Math.floor(times.length / 2)]!, result };
}

async function explain(statement: RawBuilder<unknown>): Promise<string[]> {
  const { rows } = await sql<{ "QUERY PLAN": string }>`EXPLAIN (ANALYZE, BUFFERS) ${statement}`.execute(db);
  const lines = rows.map((r) => r["QUERY PLAN"]);
  return lines.filter((l) => /Scan|Sort Method|Execution Time|Planning Time|Aggregate|Workers/.test(l));
}

try {
  const measured = await makeWorkspace();
  const other = await makeWorkspace();
  await seed(measured, ROWS, other, OTHER_ROWS);
  const { workspaceId, appIds } = measured;
  await sql`ANALYZE verifications`.execute(db);
  const scope = { workspaceId, environment: "sandbox" as const };
  console.log(
    `\n${ROWS.toLocaleString("en")} sessions in the measured workspace; ${RUNS} runs each; times in ms\n`,
  );
  const queries: { name: string; period: TStatsPeriod; appId?: string }[] = [
    ...STATS_PERIODS.map((period) => ({ name: period, period })),
    { name: "30d, one app", period: "30d", appId: appIds[0] },
  ];
  const statsRuns = async (label: string) => {
    console.log(`-- stats, ${label}`);
    const answers = new Map<string, unknown>();
    const summary: Record<string, number> = {};
    for (const q of queries) {
      const run = await timed(() => getVerificationStats(db, scope, { period: q.period, appId: q.appId }));
      summary[q.name] = run.median;
      answers.set(q.name, { ...run.result, to: undefined });
      console.log(
        `stats ${q.name.padEnd(12)} min ${run.min.toFixed(0).padStart(5)}  median ${run.median.toFixed(0).padStart(5)}  ` +
          `(${run.result.totals.created.toLocaleString("en")} sessions, ${run.result.days.length} buckets)`,
      );
      if (q.appId) continue;
      for (const line of await explain(verificationStatsSql(scope, statsWindow(q.period), q.appId)))
        console.log(`    ${line.trim()}`);
    }
    return { answers, summary };
  };

  const live = await statsRuns("all live (no rollup rows yet)");
  const rollupStarted = performance.now();
  let runs = 0;
  let rolledDays = 0;
  for (;;) {
    const result = await rollupVerificationStats(db);
    runs++;
    rolledDays += result.days.length;
    if (result.missingLeft === 0) break;
  }
  await sql`ANALYZE verification_daily_stats`.execute(db);
  const { n: rollupRows } = await db
    .selectFrom("verificationDailyStats")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  console.log(
    `\nrollup: ${runs} job runs, ${rolledDays} days, ${rollupRows.toLocaleString("en")} rows (both workspaces) ` +
      `in ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s\n`,
  );
  const rolled = await statsRuns("with the rollup");
  const steady = performance.now();
  const again = await rollupVerificationStats(db);
  console.log(
    `\nsteady-state rollup run (${again.days.length} days recomputed): ${(performance.now() - steady).toFixed(0)} ms`,
  );

  console.log("\nmedian ms        all live   with rollup   identical answer");
  for (const q of queries) {
    const same = isDeepStrictEqual(live.answers.get(q.name), rolled.answers.get(q.name));
    console.log(
      `stats ${q.name.padEnd(12)} ${live.summary[q.name]!.toFixed(0).padStart(6)}   ${rolled.summary[q.name]!.toFixed(0).padStart(10)}   ${same ? "yes" : "NO"}`,
    );
    if (!same) process.exitCode = 1;
  }
  console.log("");
  const list = await timed(() => listWorkspaceVerifications(db, scope, { limit: 20, offset: 0 }));
  console.log(
    `list page 1 (count + 20 rows) min ${list.min.toFixed(0).padStart(5)}  median ${list.median.toFixed(0).padStart(5)}  ` +
      `(total ${list.result.total.toLocaleString("en")})`,
  );
  const filtered = await timed(() =>
    listWorkspaceVerifications(db, scope, {
      limit: 20,
      offset: 0,
      status: ["failed"],
      providerId: "passport",
    }),
  );
  console.log(
    `list failed+passport min ${filtered.min.toFixed(0).padStart(5)}  median ${filtered.median.toFixed(0).padStart(5)}  ` +
      `(total ${filtered.result.total.toLocaleString("en")})`,
  );
  if (!scratch && !process.env.BENCH_KEEP) {
    for (const ws of [measured, other])
      await db.deleteFrom("workspaces").where("id", "=", ws.workspaceId).execute();
  }
} finally {
  await db.destroy();
  if (scratch && !process.env.BENCH_KEEP) {
    const { default: pg } = await import("pg");
    const admin = new pg.Client({ connectionString: url.replace(/\/idv_bench$/, "/postgres") });
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS "idv_bench" WITH (FORCE)');
    await admin.end();
  }
  await stopServer();
}
