/**
 * Every background task of the service, by name. A task receives its JSON payload and does its
 * own transaction; throwing makes graphile-worker retry it with backoff.
 */
export type TaskHandler = (payload: unknown) => Promise<void>;

export const TASKS: Record<string, () => Promise<TaskHandler>> = {
  idempotency_purge: async () => (await import("./housekeeping")).purgeIdempotencyRecords,
  "activation.complete_demo": async () => (await import("../activation/demo")).completeDemoActivation,
};
