// Cleanup of everything a script starts (servers, child processes, pools): each piece registers
// how to end it, and all of it is ended — last started first — when the script finishes, fails or
// is interrupted (Ctrl-C, SIGTERM).

const cleanups = [];
let cleaning;
/** Registers a cleanup; `sync` runs from process.on("exit") when the async path did not run. */
export function onCleanup(fn, sync) {
  cleanups.push({ fn, sync });
}
export function cleanup() {
  cleaning ??= (async () => {
    for (const c of [...cleanups].reverse()) {
      try {
        await c.fn();
      } catch (err) {
        console.error(`cleanup: ${err.message}`);
      }
      c.done = true;
    }
  })();
  return cleaning;
}
process.on("exit", () => {
  for (const c of [...cleanups].reverse()) {
    if (c.done || !c.sync) continue;
    try {
      c.sync();
    } catch {
      // best effort while exiting
    }
  }
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping everything this script started`);
    void cleanup().finally(() => process.exit(130));
  });
}
