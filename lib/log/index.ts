/** JSON logs (pino). Tests are silent by default; LOG_LEVEL overrides. CLI commands log to standard error. */
import pino from "pino";
import { config } from "../config";

export const logger = pino(
  {
    level: config().logLevel,
    base: { service: "idv-broker" },
    redact: ["req.headers.authorization", "*.clientSecret", "*.password"],
  },
  // CLI commands (bin/idv.mjs sets IDV_LOG_STDERR): logs on standard error, results on standard output
  config().logToStderr ? pino.destination(2) : undefined,
);
