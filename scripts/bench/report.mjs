// The rows of the suite, their baselines and the issue's targets (issue 15 item 4), and the one
// table (or JSON document) the benchmark prints.

/**
 * Every row, in the order it runs. `vs`: the row its ratio is taken against (the node:http + pg
 * floor for API rows, the peer's same endpoint for OIDC rows). `target`: the minimum ratio, and
 * for some rows a latency ceiling.
 */
export const ROWS = [
  { id: "floor", label: "floor: node:http + pg, select by id", group: "floor" },
  { id: "static", label: "floor: our static page GET /", group: "floor", vs: "floor" },
  { id: "peer-discovery", label: "peer: discovery", group: "peer" },
  { id: "peer-jwks", label: "peer: JWKS", group: "peer" },
  { id: "peer-userinfo", label: "peer: userinfo (Bearer)", group: "peer" },
  { id: "peer-token", label: "peer: /token (one code each)", group: "peer", vs: "floor" },
  {
    id: "discovery",
    label: "ours: OIDC discovery",
    group: "ours",
    vs: "peer-discovery",
    target: { ratio: 0.5 },
  },
  { id: "jwks", label: "ours: OIDC JWKS", group: "ours", vs: "peer-jwks", target: { ratio: 0.5 } },
  {
    id: "get-verification",
    label: "ours: GET /v1/verifications/{id}",
    group: "ours",
    vs: "floor",
    target: { ratio: 0.25 },
  },
  { id: "get-app", label: "ours: GET /v1/apps/{id} (Bearer)", group: "ours", vs: "floor" },
  {
    id: "post-verification",
    label: "ours: POST /v1/verifications (+webhooks)",
    group: "ours",
    vs: "floor",
    target: { ratio: 0.08, p99: 100 },
  },
  {
    id: "rest-token",
    label: "ours: REST /token (one code each)",
    group: "ours",
    vs: "floor",
    target: { ratio: 0.1 },
  },
  {
    id: "op-token",
    label: "ours: OP /token (one code each)",
    group: "ours",
    vs: "floor",
    target: { ratio: 0.1 },
  },
  {
    id: "userinfo",
    label: "ours: OIDC /userinfo (Bearer)",
    group: "ours",
    vs: "peer-userinfo",
    target: { ratio: 0.5 },
  },
  {
    id: "webhooks",
    label: "ours: webhook latency, state change → receiver",
    group: "ours",
    target: { p50: 100, p99: 500 },
  },
  {
    id: "memory",
    label: "ours: server resident size, max over the suite",
    group: "ours",
    target: { maxMB: 400 },
  },
  {
    id: "first-load",
    label: "ours: hosted page first-load JS (gzip)",
    group: "ours",
    target: { maxKB: 150 },
  },
];
export const ROW_IDS = ROWS.map((r) => r.id);

/** The rows to run for `--only a,b`: the named ones plus the baselines their ratios need. */
export function selectRows(only) {
  if (!only) return new Set(ROW_IDS);
  const wanted = new Set(
    only
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const id of wanted)
    if (!ROW_IDS.includes(id)) throw new Error(`unknown row "${id}"; rows: ${ROW_IDS.join(", ")}`);
  for (const id of [...wanted]) {
    const vs = ROWS.find((r) => r.id === id).vs;
    if (vs) wanted.add(vs);
  }
  return wanted;
}

function targetText(row) {
  const t = row.target;
  if (!t) return "";
  const parts = [];
  if (t.ratio !== undefined) parts.push(`≥ ${t.ratio}× ${row.vs === "floor" ? "floor" : "peer"}`);
  if (t.p50 !== undefined) parts.push(`p50 ≤ ${t.p50} ms`);
  if (t.p99 !== undefined) parts.push(`p99 ≤ ${t.p99} ms`);
  if (t.maxMB !== undefined) parts.push(`< ${t.maxMB} MB`);
  if (t.maxKB !== undefined) parts.push(`≤ ${t.maxKB} KB`);
  if (row.id === "webhooks") parts.push("none lost");
  return parts.join(", ");
}

/** Ratios and pass/fail of measured rows (a map id → figures). */
export function evaluate(results) {
  const out = [];
  for (const row of ROWS) {
    const r = results[row.id];
    if (!r) continue;
    const entry = { id: row.id, label: row.label, group: row.group, ...r };
    const base = row.vs ? results[row.vs] : undefined;
    if (row.vs && base?.rps && r.rps !== undefined) {
      entry.vs = row.vs;
      entry.ratio = r.rps / base.rps;
    }
    if (row.target) {
      entry.target = targetText(row);
      const t = row.target;
      const checks = [];
      if (r.skipped) checks.push(false);
      if (t.ratio !== undefined) checks.push(entry.ratio !== undefined && entry.ratio >= t.ratio);
      if (t.p50 !== undefined) checks.push(r.p50 !== undefined && r.p50 <= t.p50);
      if (t.p99 !== undefined) checks.push(r.p99 !== undefined && r.p99 <= t.p99);
      if (t.maxMB !== undefined) checks.push(r.maxMB !== undefined && r.maxMB < t.maxMB);
      if (t.maxKB !== undefined) checks.push(r.gzipKB !== undefined && r.gzipKB <= t.maxKB);
      if (row.id === "webhooks") checks.push(r.lost === 0 && r.pending === 0 && r.duplicated === 0);
      else if (r.errors) checks.push(false); // a target met with failing requests is not met
      entry.pass = checks.length > 0 && checks.every(Boolean);
    }
    out.push(entry);
  }
  return out;
}

const fmt = (n, digits = 0) =>
  n === undefined || n === null || Number.isNaN(n)
    ? "—"
    : Number(n).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function cells(e) {
  if (e.skipped) return [e.label, "—", "—", "—", "—", "skipped", e.target ?? "", e.target ? "FAIL" : ""];
  const mark = e.pass === undefined ? "" : e.pass ? "pass" : "FAIL";
  if (e.id === "webhooks")
    return [
      e.label,
      `${fmt(e.achievedRate)} sess/s`,
      fmt(e.p50),
      fmt(e.p99),
      `${e.lost} lost, ${e.duplicated} dup${e.pending ? `, ${e.pending} late` : ""}`,
      `${fmt(e.received)}/${fmt(e.events)} events`,
      e.target,
      mark,
    ];
  if (e.id === "memory") return [e.label, "—", "—", "—", "", `${fmt(e.maxMB)} MB`, e.target, mark];
  if (e.id === "first-load")
    return [e.label, "—", "—", "—", "", `${fmt(e.gzipKB, 1)} KB (${e.files} files)`, e.target, mark];
  const ratio =
    e.ratio !== undefined
      ? `${fmt(e.ratio, e.ratio < 0.1 ? 3 : 2)}× ${e.vs === "floor" ? "floor" : "peer"}`
      : "";
  return [e.label, fmt(e.rps), fmt(e.p50), fmt(e.p99), fmt(e.errors), ratio, e.target ?? "", mark];
}

/** The Markdown table (readable as plain text too). */
export function table(entries) {
  const head = ["row", "req/s", "p50 ms", "p99 ms", "errors", "ratio / value", "target", "result"];
  const rows = entries.map(cells);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const right = new Set([1, 2, 3, 4]);
  const line = (r) =>
    `| ${r.map((c, i) => (right.has(i) ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (right.has(i) ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(head), rule, ...rows.map(line)].join("\n");
}
