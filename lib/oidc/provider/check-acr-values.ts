/**
 * Rule: acr_values of our form `urn:{namespace}:loa:{n}` set a minimum level of assurance; of
 * several, the lowest is the minimum (any of them is acceptable to the client). Values of other
 * forms are ignored, as acr_values is a voluntary request (OIDC Core §5.5.1.1).
 */
import { loaFromAcr } from "../../verifications/loa";
import { single, type TAuthorizationParams } from "./params";

export function checkAcrValues(params: TAuthorizationParams): { acrValues?: string; minLoa?: number } {
  const raw = single(params, "acr_values");
  if (raw === undefined) return {};
  const levels = raw
    .split(" ")
    .map((v) => loaFromAcr(v))
    .filter((n): n is number => n !== undefined);
  return { acrValues: raw.slice(0, 512), ...(levels.length > 0 ? { minLoa: Math.min(...levels) } : {}) };
}
