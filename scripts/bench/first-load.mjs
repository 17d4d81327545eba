// First-load JavaScript of the hosted verification page (app/(hosted)/verify/[id]/page.tsx), read
// from the server's build output: the scripts a modern browser fetches when it opens the page —
// the build's root main files (.next/build-manifest.json `rootMainFiles`: framework, React,
// router, Turbopack runtime) plus every chunk the route's client-reference manifest lists for its
// entries (page, layout, the not-found and error boundaries:
// .next/server/app/(hosted)/verify/[id]/page_client-reference-manifest.js `entryJSFiles`) — each
// gzipped at level 9 and summed. The `noModule` polyfills (`polyfillFiles`) are left out: browsers
// that run ES modules never fetch them. Chunks loaded later on demand are not first-load.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

export const HOSTED_ROUTE = "/(hosted)/verify/[id]/page";

export function firstLoadJs(nextDir, route = HOSTED_ROUTE) {
  const buildManifest = JSON.parse(fs.readFileSync(path.join(nextDir, "build-manifest.json"), "utf8"));
  const manifestFile = path.join(nextDir, "server", "app", `${route}_client-reference-manifest.js`);
  // the manifest is a script that assigns globalThis.__RSC_MANIFEST[route]
  const sandbox = { self: {} };
  sandbox.globalThis = sandbox.self;
  vm.runInNewContext(fs.readFileSync(manifestFile, "utf8"), sandbox);
  const manifest = (sandbox.self.__RSC_MANIFEST ?? sandbox.__RSC_MANIFEST)?.[route];
  if (!manifest) throw new Error(`${manifestFile} has no entry for ${route}`);
  const files = new Set(buildManifest.rootMainFiles ?? []);
  for (const list of Object.values(manifest.entryJSFiles ?? {})) for (const f of list) files.add(f);
  let raw = 0;
  let gzip = 0;
  const chunks = [];
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(nextDir, file));
    const gz = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += gz;
    chunks.push({ file, bytes: bytes.length, gzip: gz });
  }
  const buildId = fs.readFileSync(path.join(nextDir, "BUILD_ID"), "utf8").trim();
  return { route, buildId, files: chunks.length, rawKB: raw / 1024, gzipKB: gzip / 1024, chunks };
}
