// next-auth's endpoints (sign-in, sign-out, session, CSRF token). Credential sign-ins are first
// checked against the sign-in rate limits, so a flood is refused with 429 before any password
// work (lib/auth/sign-in.ts).
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/next-auth";
import { checkSignInLimits } from "@/lib/auth/sign-in";
import { ApiError, errorBody } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { clientIp } from "@/lib/rate-limit";

type Context = { params: Promise<{ nextauth: string[] }> };

const handler = (request: NextRequest, context: Context) => NextAuth(request, context, authOptions());

export const GET = handler;

export async function POST(request: NextRequest, context: Context) {
  const { nextauth } = await context.params;
  if (nextauth[0] === "callback" && nextauth[1] === "credentials") {
    const form = await request
      .clone()
      .formData()
      .catch(() => undefined);
    try {
      await checkSignInLimits(String(form?.get("email") ?? ""), clientIp(request.headers));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return Response.json(errorBody(err, newId("req")), { status: err.status, headers: err.headers });
    }
  }
  return handler(request, context);
}
