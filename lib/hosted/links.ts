/**
 * Addresses the hosted pages hand to a second device or another tab.
 * Rules:
 * - sandbox: the provider's simulator on the service's own host (PUBLIC_URL), which is where
 *   /sandbox lives even when the hosted page is served on an app's custom domain;
 * - production: the hosted page's own start address, where the provider's adapter takes over;
 * - ids only: nothing personal ever goes into these URLs.
 */
import { publicUrl } from "../config";
import type { TFlowType } from "../providers/catalog";

export function phoneUrlFor(
  verificationId: string,
  environment: string,
  flow: TFlowType,
  frame?: string,
): string {
  if (environment !== "sandbox") return `${publicUrl()}/verify/${verificationId}/start`;
  const url = new URL(`${publicUrl()}/sandbox/verify/${verificationId}`);
  url.searchParams.set("flow", flow);
  if (frame !== undefined) url.searchParams.set("f", frame);
  return url.toString();
}
