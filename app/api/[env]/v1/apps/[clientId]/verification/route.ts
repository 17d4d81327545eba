import { json, withApi } from "@/lib/http/api";
import { getVerificationSettings as getVerificationSettingsEndpoint } from "@/lib/workflows/api";
import { getVerificationSettings } from "@/lib/workflows/service";

export const GET = withApi(getVerificationSettingsEndpoint, async ({ db, auth, params }) =>
  json(200, await getVerificationSettings(db, auth, params.clientId!)),
);
