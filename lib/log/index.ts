/** JSON logs (pino). Tests and CLI runs default to warnings only; LOG_LEVEL overrides. */
import pino from "pino";

const defaultLevel = process.env.NODE_ENV === "test" || process.env.VITEST ? "silent" : "info";

export const logger = pino({
  level: process.env.LOG_LEVEL ?? defaultLevel,
  base: { service: "idv-broker" },
  redact: ["req.headers.authorization", "*.clientSecret", "*.password"],
});
