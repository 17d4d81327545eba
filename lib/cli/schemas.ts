/**
 * The flag schemas shared by the commands. Messages are written to follow the flag name
 * ("--email must be a valid email address") and never repeat the value.
 */
import { z } from "zod";
import { ENVIRONMENTS } from "../environments";

export const ZEmailFlag = z.email({ error: "must be a valid email address" });
export const ZPasswordFlag = z.string().min(8, "must be at least 8 characters");
export const ZNameFlag = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters");
export const ZEnvironmentFlag = z.enum(ENVIRONMENTS, { error: "must be sandbox or production" });
export const ZJsonFlag = z.boolean().default(false);
