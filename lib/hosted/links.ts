/**
 * Addresses the hosted pages hand to a second device or another tab.
 * Rules:
 * - sandbox: the provider's simulator on the service's own host (PUBLIC_URL), which is where
 *   /sandbox lives even when the hosted page is served on an app's custom domain;
 * - production: the hosted page's own start address, where the provider's adapter takes over;
 * - ids only: nothing personal ever goes into these URLs;
 * - the console link (consoleUrlFor) exists for sandbox sessions only.
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

/**
 * The session in the console, for the workspace member who started a sandbox test: sandbox
 * sessions only (undefined otherwise). It goes through the console's sign-in page on PUBLIC_URL
 * (wherever the hosted page is served) with the session's console page as `callbackUrl`: a
 * signed-in member is sent straight on, anyone else is asked to sign in first and lands there
 * afterwards. The address holds only the session id the hosted page's own address shows; the
 * console shows the session to members of its workspace only.
 */
export function consoleUrlFor(verificationId: string, environment: string): string | undefined {
  if (environment !== "sandbox") return undefined;
  const url = new URL(`${publicUrl()}/`);
  url.searchParams.set("callbackUrl", `/console/sandbox/verifications/${verificationId}`);
  return url.toString();
}
