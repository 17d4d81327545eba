// Types of the parts of production.mjs (plain JavaScript: node runs it without a build) that
// TypeScript tests use (lib/testing/fuzz.integration.test.ts).
import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http";

export declare function serverOptions(bodyTimeoutMs: number): ServerOptions;
export declare function requestListener(options: {
  port: number;
  handle: (req: IncomingMessage, res: ServerResponse) => unknown;
  serveFast?: (
    req: IncomingMessage,
    res: ServerResponse,
    shaped: { route: unknown; target: string; body?: { bytes(): Buffer } },
  ) => Promise<boolean>;
}): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
