/**
 * GET /oidc/{env}/resume/{resumeToken}: a session ended; answer the OP's client. The segment is the
 * request's random resume token (the folder keeps its old name), not the verification id.
 */
import { handleResume } from "@/lib/oidc/provider/handlers";
import { notFoundResponse, oidcEnvironment, type TOidcContext } from "../../env";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { OP_PAGE, opAnswer } from "@/app/oidc/_lib/op-page";

export const dynamic = "force-dynamic";

export const GET = pipeline(OP_PAGE, async (request: Request, context: TOidcContext): Promise<Response> => {
  const env = await oidcEnvironment(context);
  const { verificationId } = await context.params;
  return env && typeof verificationId === "string"
    ? opAnswer(request, await handleResume(request, env, verificationId))
    : notFoundResponse();
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(OP_PAGE, { GET });
