/**
 * Next.js start-up hook: runs the background job worker inside each server process (the queue
 * is shared through PostgreSQL, so any number of instances may run it). IDV_JOBS=off disables
 * it, e.g. for an instance that should only serve requests.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.IDV_JOBS === "off") return;
  const { startJobWorker } = await import("./lib/jobs/worker");
  await startJobWorker();
}
