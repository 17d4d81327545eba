/** GET /oidc/{env}/resume/{verificationId}: a session ended; answer the OP's client. */
import { handleResume } from "@/lib/oidc/provider/handlers";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../../env";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: TOidcContext): Promise<Response> {
  const env = await oidcEnvironment(context);
  const { verificationId } = await context.params;
  return env && typeof verificationId === "string"
    ? handleResume(request, env, verificationId)
    : notFoundResponse();
}
