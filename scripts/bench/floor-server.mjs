// The floor: a bare node:http server doing one indexed select on `verifications` (by primary
// key) per request on the service's database, answering the row as JSON — what Node.js and
// PostgreSQL can do on this machine with nothing in between. Forked by scripts/bench.mjs with
// FLOOR_DATABASE_URL and FLOOR_VERIFICATION_ID; a pool as large as the service's default
// (DATABASE_POOL_SIZE, 10). Listens on a free port of 127.0.0.1.
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({
  connectionString: process.env.FLOOR_DATABASE_URL,
  max: Number(process.env.FLOOR_POOL_SIZE ?? 10),
  application_name: "bench-floor",
});
pool.on("error", () => undefined);
const id = process.env.FLOOR_VERIFICATION_ID;
const query = {
  name: "floor_status",
  text: `SELECT id, app_id, status, provider_id, created_at, updated_at, expires_at
           FROM verifications WHERE id = $1`,
};

const server = http.createServer(async (req, res) => {
  try {
    const { rows } = await pool.query({ ...query, values: [id] });
    if (!rows.length) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    const body = JSON.stringify(rows[0]);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" }).end(String(err.message));
  }
});

try {
  // the first query checks the database and that it holds the server's verification
  const { rows } = await pool.query({ ...query, values: [id] });
  if (!rows.length)
    throw new Error(
      `verification ${id} is not in this database: the floor must use the server's database (set BENCH_DATABASE_URL)`,
    );
  server.listen(0, "127.0.0.1", () => process.send({ ready: true, port: server.address().port }));
} catch (err) {
  process.send({ error: err.message });
  process.exit(1);
}
process.on("SIGTERM", () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
process.on("disconnect", () => process.exit(0));
