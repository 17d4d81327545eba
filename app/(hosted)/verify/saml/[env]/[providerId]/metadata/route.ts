// Our SAML service-provider metadata for a provider's saml connection (hand it to the IdP).
import { HOSTED_HEADERS, textResponse } from "@/lib/hosted/headers";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";
import { samlMetadataOf } from "@/lib/verifications/saml";

export const dynamic = "force-dynamic";

type TContext = { params: Promise<{ env: string; providerId: string }> };

export const GET = pipeline(HOSTED, async (_request: Request, ctx: TContext) => {
  const { env, providerId } = await ctx.params;
  const xml = await samlMetadataOf(env, providerId);
  if (xml === null) return textResponse(404, "No SAML connection for this provider");
  return new Response(xml, {
    status: 200,
    headers: {
      ...HOSTED_HEADERS,
      "Content-Type": "application/samlmetadata+xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
