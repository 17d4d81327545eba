import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.IDV_MASTER_KEY ??= "test-master-key-0123456789abcdef";
process.env.PUBLIC_URL ??= "http://localhost:3000";
process.env.IDV_VALIDATE_RESPONSES = "1";
// every file sends mail to the run's one SMTP server (global-setup.ts; read with lib/testing/mail.ts)
process.env.SMTP_URL = inject("smtpUrl");
// the integration files share one database and mostly one client address ("unknown"): the abuse
// limits stay out of their way; lib/rate-limit's own tests set small values
for (const name of [
  "IDV_CREDENTIAL_LIMIT_IP",
  "IDV_CREDENTIAL_LIMIT_CLIENT",
  "IDV_OIDC_AUTH_LIMIT_IP",
  "IDV_HOSTED_LIMIT_IP",
  "IDV_HOSTED_LIMIT_SESSION",
]) {
  process.env[name] ??= "1000000";
}
