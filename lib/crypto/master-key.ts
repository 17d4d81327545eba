/**
 * IDV_MASTER_KEY encrypts secrets at rest (webhook secrets, provider credentials, verified
 * claims, stored idempotent responses). In development it is generated once into
 * `.data/master.key`; in production mode (NODE_ENV=production) it must be configured.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config, ConfigError, setVariable } from "../config";
import { projectRoot } from "../config/paths";

let cached: Buffer | undefined;

export function masterKeyFile(): string {
  return path.join(projectRoot, ".data", "master.key");
}

/** Ensures a development master key exists and exports it as IDV_MASTER_KEY. */
export function ensureDevMasterKey(): string {
  const configured = config().masterKey;
  if (configured) return configured;
  const file = masterKeyFile();
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  const key = fs.readFileSync(file, "utf8").trim();
  setVariable("IDV_MASTER_KEY", key);
  return key;
}

export function getMasterKey(): Buffer {
  if (cached) return cached;
  // at least 16 characters (lib/config refuses shorter ones)
  let raw = config().masterKey;
  if (!raw && !config().production) raw = ensureDevMasterKey();
  if (!raw) throw new ConfigError(["IDV_MASTER_KEY is required in production mode"]);
  // any string of enough entropy becomes a 256-bit key
  cached = createHash("sha256").update(raw, "utf8").digest();
  return cached;
}
