#!/usr/bin/env node
// The operator CLI and launcher (`npx idv …`, `npm run dev`, `npm start`). The commands are
// TypeScript in lib/cli, loaded through tsx so they share the domain code of the service.
import { register } from "tsx/esm/api";

register();
// every command but `serve` prints its result on standard output (some as --json): its log lines
// go to standard error so that they never mix with the result
if (process.argv[2] !== "serve") process.env.IDV_LOG_STDERR ??= "1";
const { main } = await import("../lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
