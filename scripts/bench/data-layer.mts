// Candidate data layers (issue 25), one process, one PostgreSQL: Node CPU and wall time per
// operation, three rounds, the median printed. Usage: DATABASE_URL=… N=1000 npx tsx scripts/bench/data-layer.mts
// (a scratch database: it inserts a workspace, an app and sessions). Prisma 6 and 7 were measured
// the same way (docs/decisions.md "One data layer" has their figures); the application no longer
// depends on Prisma's client, so their rows are gone from this script.
import pg from "pg";
import { sql } from "kysely";
import { kyselyFor, prepared } from "../../lib/db/kysely.ts";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { randomUUID } from "node:crypto";

const url = process.env.DATABASE_URL!;
const N = Number(process.env.N ?? 1500);
pg.types.setTypeParser(1114, (s: string) => new Date(s.replace(" ", "T") + "Z"));
pg.defaults.parseInputDatesAsUTC = true;
const pool = new pg.Pool({ connectionString: url, max: 4 });

const id = (p: string) => `${p}_${randomUUID().replace(/-/g, "")}`;
const ws = id("ws"),
  app = id("app");
const now = new Date();
await pool.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ($1,'b',now())`, [ws]);
await pool.query(
  `INSERT INTO apps (id, workspace_id, environment, name, updated_at, client_secret_hash) VALUES ($1,$2,'sandbox','bench',now(),'x')`,
  [app, ws],
);
for (const p of ["a", "b", "c"])
  await pool.query(`INSERT INTO app_providers (app_id, provider_id, updated_at) VALUES ($1,$2,now())`, [
    app,
    p,
  ]);
for (let i = 0; i < 2; i++)
  await pool.query(
    `INSERT INTO workflows (id, app_id, name, entry_node_id, nodes, updated_at) VALUES ($1,$2,'w','n','[]',now())`,
    [id("wf"), app],
  );
const vids: string[] = [];
for (let i = 0; i < 200; i++) {
  const v = id("ver");
  vids.push(v);
  await pool.query(
    `INSERT INTO verifications (id, app_id, workspace_id, environment, provider_id, workflow_id, verification_node_id, flow_type, channel, status, updated_at, expires_at) VALUES ($1,$2,$3,'sandbox','a','wf','n','redirect','api','created',now(),now())`,
    [v, app, ws],
  );
}
let k = 0;
const vid = () => vids[k++ % vids.length]!;

const STATUS_SQL = `SELECT a.id, a.client_secret_hash, a.environment, a.deleted_at, r.* FROM apps a LEFT JOIN (SELECT TRUE AS found, v.id AS v_id, v.status, v.status_reason, v.provider_id, v.created_at, v.updated_at, v.expires_at, v.loa FROM verifications v WHERE v.id = $2) r ON TRUE WHERE a.id = $1`;
const STATUS_PREPARED = prepared("bench_status_read", (db, p: { app: string; id: string }) =>
  db
    .selectFrom("apps as a")
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("verifications as v")
          .select([
            sql<boolean>`true`.as("found"),
            "v.id as vId",
            "v.status",
            "v.statusReason",
            "v.providerId",
            "v.createdAt",
            "v.updatedAt",
            "v.expiresAt",
            "v.loa",
          ])
          .where("v.id", "=", p.id)
          .as("r"),
      (j) => j.onTrue(),
    )
    .select(["a.id", "a.clientSecretHash", "a.environment", "a.deletedAt"])
    .selectAll("r")
    .where("a.id", "=", p.app),
);
const layer = kyselyFor(pool);
type Op = () => Promise<unknown>;
const ops: Record<string, Record<string, Op>> = {
  "status read (credential + session row)": {
    "pg prepared (today)": () => pool.query({ name: "st", text: STATUS_SQL, values: [app, vid()] }),
    kysely: () =>
      layer
        .selectFrom("apps as a")
        .leftJoin(
          (eb) =>
            eb
              .selectFrom("verifications as v")
              .select([
                sql<boolean>`true`.as("found"),
                "v.id as v_id",
                "v.status",
                "v.statusReason",
                "v.providerId",
                "v.createdAt",
                "v.updatedAt",
                "v.expiresAt",
                "v.loa",
              ])
              .where("v.id", "=", vid())
              .as("r"),
          (j) => j.onTrue(),
        )
        .select(["a.id", "a.clientSecretHash", "a.environment", "a.deletedAt"])
        .selectAll("r")
        .where("a.id", "=", app)
        .executeTakeFirst(),
    "kysely prepared (lib/db/kysely.ts)": () => STATUS_PREPARED.run(layer, { app, id: vid() }),
  },
  "app with providers and workflows": {
    "kysely (jsonArrayFrom)": () =>
      layer
        .selectFrom("apps as a")
        .selectAll("a")
        .select((eb) => [
          jsonArrayFrom(
            eb.selectFrom("appProviders as p").selectAll("p").whereRef("p.appId", "=", "a.id"),
          ).as("providers"),
          jsonArrayFrom(eb.selectFrom("workflows as w").selectAll("w").whereRef("w.appId", "=", "a.id")).as(
            "workflows",
          ),
        ])
        .where("a.id", "=", app)
        .where("a.workspaceId", "=", ws)
        .executeTakeFirst(),
  },
  "update one row": {
    "pg prepared": () =>
      pool.query({
        name: "up",
        text: `UPDATE verifications SET status = $2, updated_at = now() WHERE id = $1`,
        values: [vid(), "started"],
      }),
    kysely: () =>
      layer
        .updateTable("verifications")
        .set({ status: "started", updated_at: new Date() })
        .where("id", "=", vid())
        .execute(),
  },
  "create session + 3 events (transaction)": {
    "pg (BEGIN, 2 inserts, COMMIT)": async () => {
      const c = await pool.connect();
      try {
        await c.query("BEGIN");
        const v = id("ver");
        await c.query({
          name: "iv",
          text: `INSERT INTO verifications (id, app_id, workspace_id, environment, provider_id, workflow_id, verification_node_id, flow_type, channel, status, updated_at, expires_at) VALUES ($1,$2,$3,'sandbox','a','wf','n','redirect','api','created',$4,$4)`,
          values: [v, app, ws, now],
        });
        await c.query({
          name: "ie",
          text: `INSERT INTO verification_events (id, verification_id, app_id, type, payload) SELECT unnest($1::text[]), $2, $3, unnest($4::text[]), '{}'::jsonb`,
          values: [[id("evt"), id("evt"), id("evt")], v, app, ["a", "b", "c"]],
        });
        await c.query("COMMIT");
      } finally {
        c.release();
      }
    },
    "kysely transaction": () =>
      layer.transaction().execute(async (tx) => {
        const v = id("ver");
        await tx
          .insertInto("verifications")
          .values({
            id: v,
            appId: app,
            workspaceId: ws,
            environment: "sandbox",
            providerId: "a",
            workflowId: "wf",
            verificationNodeId: "n",
            flowType: "redirect",
            channel: "api",
            status: "created",
            updatedAt: now,
            expiresAt: now,
          })
          .execute();
        await tx
          .insertInto("verification_events")
          .values(
            ["a", "b", "c"].map((t) => ({
              id: id("evt"),
              verificationId: v,
              appId: app,
              type: t,
              payload: "{}",
            })),
          )
          .execute();
      }),
  },
};

async function measure(op: Op) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await op();
  const c = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  return { cpuUs: (c.user + c.system) / N, wallMs: wall / N };
}
const results: Record<string, Record<string, { cpuUs: number[]; wallMs: number[] }>> = {};
for (const cands of Object.values(ops))
  for (const op of Object.values(cands)) for (let i = 0; i < 200; i++) await op();
for (let round = 0; round < 3; round++)
  for (const [group, cands] of Object.entries(ops))
    for (const [name, op] of Object.entries(cands)) {
      const r = await measure(op);
      (results[group] ??= {})[name] ??= { cpuUs: [], wallMs: [] };
      results[group][name].cpuUs.push(r.cpuUs);
      results[group][name].wallMs.push(r.wallMs);
    }
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
for (const [group, cands] of Object.entries(results)) {
  console.log(`\n${group}`);
  for (const [name, r] of Object.entries(cands))
    console.log(
      `  ${name.padEnd(32)} Node CPU ${med(r.cpuUs).toFixed(0).padStart(5)} µs/op   wall ${med(r.wallMs).toFixed(3)} ms/op   (cpu ${r.cpuUs.map((x) => x.toFixed(0)).join("/")})`,
    );
}
