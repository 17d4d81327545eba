/** JSON logs (pino). Tests are silent by default; LOG_LEVEL overrides. CLI commands log to standard error. */
import pino from "pino";

const defaultLevel = process.env.NODE_ENV === "test" || process.env.VITEST ? "silent" : "info";

export const logger = pino(
  {
    level: process.env.LOG_LEVEL ?? defaultLevel,
    base: { service: "idv-broker" },
    redact: ["req.headers.authorization", "*.clientSecret", "*.password"],
  },
  // CLI commands (bin/idv.mjs sets IDV_LOG_STDERR): logs on standard error, results on standard output
  process.env.IDV_LOG_STDERR === "1" ? pino.destination(2) : undefined,
);
