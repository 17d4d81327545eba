// dc flow in production: GET → the Digital Credentials API request (OpenID4VP) for this session;
// POST → the wallet's answer, verified and applied. Both are fetches of the hosted page itself.
import { kysely } from "@/lib/db/client";
import { servesVerification } from "@/lib/domains/served-app";
import { isSameOrigin, jsonResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { ApiError } from "@/lib/errors";
import { beginWalletPresentation, completeWalletPresentation } from "@/lib/verifications/wallet";
import { limitHostedAction } from "@/lib/rate-limit/requests";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";
import { readJsonBody } from "@/lib/http/body";

export const dynamic = "force-dynamic";

/** a wallet's answer is one SD-JWT VC with a handful of disclosures, far below this */
const MAX_BODY_BYTES = 256 * 1024;

type Ctx = { params: Promise<{ id: string }> };

function errorResponse(status: number, code: string, message: string, details?: unknown[]): Response {
  return jsonResponse(status, { error: { code, message, ...(details?.length ? { details } : {}) } });
}

function fromApiError(err: unknown): Response {
  if (err instanceof ApiError) return errorResponse(err.status, err.code, err.message, err.details);
  throw err;
}

async function guard(request: Request, ctx: Ctx): Promise<Response | string> {
  const { id } = await ctx.params;
  const limited = await limitHostedAction(request, id);
  if (limited) return limited;
  if (!isSameOrigin(request)) return errorResponse(403, "RESOURCE_FORBIDDEN", "Cross-site request refused");
  if (!VERIFICATION_ID.test(id) || !(await servesVerification(kysely(), request.headers, id)))
    return errorResponse(404, "RESOURCE_NOT_FOUND", "Verification not found");
  return id;
}

export const GET = pipeline(HOSTED, async (request: Request, ctx: Ctx) => {
  const id = await guard(request, ctx);
  if (typeof id !== "string") return id;
  try {
    return jsonResponse(200, await beginWalletPresentation(id));
  } catch (err) {
    return fromApiError(err);
  }
});

export const POST = pipeline(HOSTED, async (request: Request, ctx: Ctx) => {
  const id = await guard(request, ctx);
  if (typeof id !== "string") return id;
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
    return errorResponse(415, "UNSUPPORTED_MEDIA_TYPE", "Send the wallet response as application/json");
  }
  // size (413) and JSON complexity are checked while reading (lib/http/body.ts)
  const body = (await readJsonBody(request, { maxBytes: MAX_BODY_BYTES })).json;
  if (body === undefined) return errorResponse(400, "INVALID_JSON", "The body is not valid JSON");
  try {
    const v = await completeWalletPresentation(id, body);
    return jsonResponse(200, {
      status: v.status,
      ...(v.statusReason && v.status !== "completed" ? { reason: v.statusReason } : {}),
    });
  } catch (err) {
    return fromApiError(err);
  }
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET, POST });
