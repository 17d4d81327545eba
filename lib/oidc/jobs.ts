/** Background task of the signing keys: daily rotation check for both environments. */
import { kysely } from "../db/client";
import { ENVIRONMENTS } from "../environments";
import { logger } from "../log";
import { rotateSigningKeys } from "./keys";

export async function rotateSigningKeysTask(): Promise<void> {
  for (const environment of ENVIRONMENTS) {
    const result = await rotateSigningKeys(kysely(), environment);
    if (result.created.length + result.retired.length + result.removed.length > 0) {
      logger.info({ environment, ...result }, "signing keys rotated");
    }
  }
}
