#!/usr/bin/env node
// The operator CLI and launcher (`npx idv …`, `npm run dev`, `npm start`). The commands are
// TypeScript in lib/cli, loaded through tsx so they share the domain code of the service.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
