// Browser benchmark of the workflow editor with a large workflow (200 nodes: request,
// verification, 197 checks, response), against a running server (`npm run build && npm start`).
//
// Usage: BENCH_URL=http://127.0.0.1:3000 BENCH_KEY=sk_workspace_test_… \
//        BENCH_EMAIL=demo@example.com BENCH_PASSWORD=demo-password node scripts/bench-editor.mjs [--json]
//
// It creates an app and the workflow with the key, signs in to the console in Debian's Chromium
// (headless, 1280×800), opens the editor and measures, counting animation frames in the page:
// the time until all 200 nodes are drawn, panning the canvas, dragging a node, and zooming with the
// wheel — each for about a second of continuous input. Frame rate and the longest frame say whether
// the canvas keeps up (60 fps is the display's pace; under ~30 fps or frames over 50 ms feel stuck).
// Loopback only; bounded in time; the app is deleted afterwards.
import { chromium } from "playwright-core";

const base = process.env.BENCH_URL ?? "http://127.0.0.1:3000";
const key = process.env.BENCH_KEY;
const email = process.env.BENCH_EMAIL;
const password = process.env.BENCH_PASSWORD;
const asJson = process.argv.includes("--json");
const NODES = 200;
if (!key || !email || !password) {
  console.error("Set BENCH_KEY (sandbox key), BENCH_EMAIL and BENCH_PASSWORD (its console sign-in).");
  process.exit(2);
}
if (!["127.0.0.1", "localhost", "::1"].includes(new URL(base).hostname)) {
  console.error("The benchmark only targets loopback addresses.");
  process.exit(2);
}
const api = (path, init = {}) =>
  fetch(`${base}/api/sandbox${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
  });

const app = await (
  await api("/v1/apps", { method: "POST", body: JSON.stringify({ name: "Editor benchmark" }) })
).json();
const checks = Array.from({ length: NODES - 3 }, (_, i) => ({
  id: `check${i}`,
  type: "check-min-loa",
  next: i === NODES - 4 ? "end" : `check${i + 1}`,
  config: { minLoa: 1 },
}));
const created = await api(`/v1/apps/${app.clientId}/workflows`, {
  method: "POST",
  body: JSON.stringify({
    name: "Two hundred nodes",
    entryNodeId: "start",
    nodes: [
      { id: "start", type: "request", next: "verify" },
      {
        id: "verify",
        type: "verification",
        next: "check0",
        config: { channel: "api", claims: ["given_name"] },
      },
      ...checks,
      { id: "end", type: "response" },
    ],
  }),
});
if (created.status !== 201) {
  console.error(`creating the workflow failed: ${created.status} ${await created.text()}`);
  process.exit(1);
}
const workflow = await created.json();

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
});
const rows = [];
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${base}/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/console\/sandbox\//);

  const started = Date.now();
  await page.goto(`${base}/console/sandbox/apps/${app.clientId}/workflows/${workflow.workflowId}`);
  await page.waitForFunction((n) => document.querySelectorAll(".react-flow__node").length >= n, NODES, {
    timeout: 60_000,
  });
  rows.push({ what: `open the editor, ${NODES} nodes drawn`, ms: Date.now() - started });

  // frames counted in the page while the input runs
  const measure = async (what, input) => {
    await page.evaluate(() => {
      const w = window;
      w.__frames = [];
      w.__counting = true;
      const tick = (t) => {
        w.__frames.push(t);
        if (w.__counting) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await input();
    const frames = await page.evaluate(() => {
      window.__counting = false;
      return window.__frames;
    });
    const gaps = frames.slice(1).map((t, i) => t - frames[i]);
    const seconds = (frames.at(-1) - frames[0]) / 1000;
    gaps.sort((a, b) => a - b);
    rows.push({
      what,
      fps: Math.round((frames.length - 1) / seconds),
      p95FrameMs: Math.round(gaps[Math.floor(gaps.length * 0.95)] ?? 0),
      maxFrameMs: Math.round(gaps.at(-1) ?? 0),
    });
  };
  const pane = await page.locator(".react-flow__pane").boundingBox();
  const cx = pane.x + pane.width / 2;
  const cy = pane.y + pane.height / 2;
  await measure("pan the canvas (60 moves)", async () => {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let i = 1; i <= 60; i++) {
      await page.mouse.move(cx - i * 3, cy - i * 4);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
  });
  const node = await page.locator('.react-flow__node[data-id="verify"]').boundingBox();
  await measure("drag a node (60 moves)", async () => {
    const x = node.x + node.width / 2;
    const y = node.y + 12;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 60; i++) {
      await page.mouse.move(x + i * 3, y + i * 2);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
  });
  await measure("zoom with the wheel (30 steps)", async () => {
    await page.mouse.move(cx, cy);
    for (let i = 0; i < 30; i++) {
      await page.mouse.wheel(0, i < 15 ? -60 : 60);
      await page.waitForTimeout(30);
    }
  });
} finally {
  await browser.close();
  await api(`/v1/apps/${app.clientId}`, { method: "DELETE" });
}

if (asJson) console.log(JSON.stringify({ nodes: NODES, rows }, null, 2));
else {
  console.log(`Workflow editor, ${NODES} nodes, headless Chromium 1280×800`);
  for (const r of rows)
    console.log(
      r.ms !== undefined
        ? `  ${r.what.padEnd(40)} ${r.ms} ms`
        : `  ${r.what.padEnd(40)} ${String(r.fps).padStart(3)} fps   p95 frame ${r.p95FrameMs} ms   longest ${r.maxFrameMs} ms`,
    );
}
