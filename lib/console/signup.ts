import { config } from "../config";

/** Self-service sign-up is on unless IDV_SIGNUP=off (self-hosters who add workspaces by CLI). */
export function signupEnabled(): boolean {
  return config().signup;
}
