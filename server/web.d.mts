// Types of the parts of web.mjs (plain JavaScript: node runs it without a build) that TypeScript
// tests use (lib/testing/fuzz.integration.test.ts).
import type { ServerResponse } from "node:http";

export declare function writeResponse(
  res: ServerResponse,
  response: Response,
  extraHeaders: Record<string, string>,
): Promise<void>;
