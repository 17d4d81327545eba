/** GET /connections/{connectionId}/jwks.json: an oidc connection's public keys, for its upstream. */
import { connectionJwks } from "@/lib/connections/jwks";
import { kysely } from "@/lib/db/client";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { REST } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

type TContext = { params: Promise<{ connectionId: string }> };

export const GET = pipeline(REST, async (_request: Request, context: TContext): Promise<Response> => {
  const { connectionId } = await context.params;
  const jwks = await connectionJwks(kysely(), connectionId);
  return new Response(JSON.stringify(jwks), {
    status: 200,
    headers: {
      "Content-Type": "application/jwk-set+json",
      // an upstream may cache it briefly; a rotated key is picked up within minutes
      "Cache-Control": "public, max-age=300",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(REST, { GET });
