// Preloaded into the Prisma CLI when the launcher runs `migrate deploy`. The WebAssembly schema
// engine arms a 10 s timer that keeps the CLI process alive after its work is done; unref'ing
// long timers lets the process exit as soon as nothing else is pending.
const originalSetTimeout = global.setTimeout;
global.setTimeout = function setTimeoutUnrefLong(fn, ms, ...args) {
  const timer = originalSetTimeout(fn, ms, ...args);
  if (typeof ms === "number" && ms >= 5000 && typeof timer?.unref === "function") timer.unref();
  return timer;
};
