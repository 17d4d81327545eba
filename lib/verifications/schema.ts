/** Request bodies of the verification App API and the sandbox test helpers. */
import { z } from "zod";
import { FLOW_TYPES } from "../providers/catalog";

const str = () => z.string({ error: "must be a string" });

export const ZCreateVerification = z.strictObject({
  providerId: str().trim().min(1, "must not be empty").max(64),
  workflowId: str().trim().min(1, "must not be empty").max(64).optional(),
  redirect_uri: str().min(1, "must not be empty").max(2048).optional(),
  state: str().max(512, "must be at most 512 characters").optional(),
  matchData: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
  locale: str()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "must be a BCP 47 language tag such as en or de-CH")
    .optional(),
  flowType: z.enum(FLOW_TYPES, { error: `must be one of: ${FLOW_TYPES.join(", ")}` }).optional(),
  /** a scheduled production-test challenge this session takes part in */
  challengeId: str().trim().min(1).max(64).optional(),
  deviceType: z
    .enum(["desktop", "mobile", "tablet"], { error: "must be desktop, mobile or tablet" })
    .optional(),
  countryCode: str()
    .regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 code")
    .transform((c) => c.toUpperCase())
    .optional(),
});
export type TCreateVerification = z.infer<typeof ZCreateVerification>;

export const SIMULATE_OUTCOMES = ["success", "failure", "cancel", "expire"] as const;

export const ZSimulate = z.strictObject({
  outcome: z.enum(SIMULATE_OUTCOMES, { error: `must be one of: ${SIMULATE_OUTCOMES.join(", ")}` }),
  identity: str().trim().min(1).max(128).optional(),
});
export type TSimulate = z.infer<typeof ZSimulate>;

export const ZIdentitiesQuery = z.object({
  providerId: str().trim().min(1, "is required").max(64),
});
