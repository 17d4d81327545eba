/**
 * What `idv serve` (npm start, npm run dev) checks before it starts the database and Next.js:
 * every variable (config()), and the entries of the two JSON settings whose schema belongs to an
 * adapter (IDV_UPSTREAM_OIDC, IDV_WALLET_TRUSTED_ISSUERS, imported into connections once the
 * database is up: lib/connections/runtime.ts). A bad value throws ConfigError naming the
 * variable, so the service refuses to start instead of importing half of it. The adapters are
 * imported here, on start-up only, so that lib/config itself stays light.
 */
import { config, type TConfig } from "./index";

export async function checkConfiguration(): Promise<TConfig> {
  const settings = config();
  const { environmentConnections } = await import("../connections/runtime");
  environmentConnections();
  return settings;
}

/**
 * The start-up warning of a service that sends no mail (SMTP_URL unset, outside `npm run dev`,
 * which catches mail locally): what works differently, so the operator decides knowingly.
 */
export function mailWarning(settings: Pick<TConfig, "smtpUrl">): string | undefined {
  if (settings.smtpUrl) return undefined;
  return [
    "SMTP_URL is not set, so this service sends no mail:",
    "invitation links are only shown to copy, password reset is unavailable (people must ask a workspace owner),",
    "and sign-up creates workspaces at once, which tells whoever signs up whether an email already has an account.",
    "Set SMTP_URL (and MAIL_FROM) to send invitations, sign-up confirmations, password resets and role-change notices.",
  ].join(" ");
}
