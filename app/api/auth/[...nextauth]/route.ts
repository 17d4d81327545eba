// next-auth's endpoints (sign-in, sign-out, session, CSRF token). Credential sign-ins are first
// checked against the sign-in rate limits, so a flood is refused with 429 before any password
// work (lib/auth/sign-in.ts).
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/next-auth";
import { checkSignInLimits } from "@/lib/auth/sign-in";
import { readFormBody } from "@/lib/http/body";
import { ApiError } from "@/lib/errors";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { REST } from "@/lib/http/surfaces";
import { clientIp } from "@/lib/rate-limit";

type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth's forms: a sign-in is an email, a password and a CSRF token */
const FORM_MAX_BYTES = 16 * 1024;

const handler = (request: NextRequest, context: Context) =>
  NextAuth(request, context, authOptions()) as Promise<Response>;

export const GET = pipeline(REST, handler);

export const POST = pipeline(REST, async (request: NextRequest, context: Context) => {
  const { nextauth } = await context.params;
  // next-auth reads the body itself, unbounded: a copy is read first, over the limit → 413
  // (a body that is not a form is next-auth's to refuse)
  const form = await readFormBody(request.clone(), { maxBytes: FORM_MAX_BYTES }).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === "PAYLOAD_TOO_LARGE") throw err;
    return undefined;
  });
  if (nextauth[0] === "callback" && nextauth[1] === "credentials") {
    await checkSignInLimits(String(form?.get("email") ?? ""), clientIp(request.headers));
  }
  return handler(request, context);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(REST, { GET, POST });
