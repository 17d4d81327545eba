/** Self-service sign-up is on unless IDV_SIGNUP=off (self-hosters who add workspaces by CLI). */
export function signupEnabled(): boolean {
  return process.env.IDV_SIGNUP !== "off";
}
