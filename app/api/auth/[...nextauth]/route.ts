// next-auth's endpoints (sign-in, sign-out, session, CSRF token). Before next-auth sees a request:
// - credential sign-ins are checked against the sign-in rate limits, so a flood is refused with
//   429 before any password work (lib/auth/sign-in.ts);
// - the body is read here within its limit (16 KB, a sign-in form; over it 413) and handed to
//   next-auth parsed, so next-auth never reads a body itself;
// - `callbackUrl` (query parameter, form field) must be a path or a URL of PUBLIC_URL's origin,
//   else 400; a `next-auth.callback-url` cookie that is not is dropped and cleared
//   (lib/http/callback-url.ts): next-auth answers a value it cannot parse with a 500.
// next-auth runs through its request/response interface (req.query, req.body, req.cookies), so it
// reads the cookies and query given here, not Next.js's request scope.
// Its answers can be pages (the sign-out confirmation): never framed.
import NextAuth from "next-auth";
import type { NextApiRequest, NextApiResponse } from "next";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/next-auth";
import { checkSignInLimits } from "@/lib/auth/sign-in";
import { config } from "@/lib/config";
import { mediaTypeOf, readBodyText, readFormBody, readJsonBody } from "@/lib/http/body";
import {
  CALLBACK_URL_COOKIES,
  checkCallbackUrl,
  isAcceptableCallbackUrl,
  parseCookieHeader,
} from "@/lib/http/callback-url";
import { AUTH_FORM_MAX_BYTES } from "@/lib/http/early-refusals";
import { otherMethodsOf, pipeline } from "@/lib/http/pipeline";
import { REST } from "@/lib/http/surfaces";
import { clientIp } from "@/lib/rate-limit";

type Context = { params: Promise<{ nextauth: string[] }> };

const FRAME_HEADERS = { "X-Frame-Options": "DENY", "Content-Security-Policy": "frame-ancestors 'none'" };

/** The body next-auth would read (a form or JSON object), read here within the limit. */
async function readBody(request: NextRequest): Promise<Record<string, unknown> | undefined> {
  if (request.method !== "POST") return undefined;
  const type = mediaTypeOf(request);
  if (type === "application/x-www-form-urlencoded") {
    return Object.fromEntries(await readFormBody(request, { maxBytes: AUTH_FORM_MAX_BYTES }));
  }
  if (type === "application/json") {
    const { json } = await readJsonBody(request, { maxBytes: AUTH_FORM_MAX_BYTES });
    return json !== null && typeof json === "object" && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  }
  // anything else is no body to next-auth (as its own reader has it); still read within the limit
  await readBodyText(request, AUTH_FORM_MAX_BYTES);
  return undefined;
}

/** Runs next-auth on the checked request and turns its answer into a Response. */
async function runNextAuth(
  request: NextRequest,
  nextauth: string[],
  body: Record<string, unknown> | undefined,
): Promise<Response> {
  const publicUrl = config().publicUrl;
  const url = new URL(request.url);
  checkCallbackUrl(url.searchParams.get("callbackUrl"), publicUrl);
  const field = body?.callbackUrl;
  if (field !== undefined) checkCallbackUrl(typeof field === "string" ? field : "?", publicUrl);

  const cookies = parseCookieHeader(request.headers.get("cookie"));
  const cleared: string[] = [];
  for (const name of CALLBACK_URL_COOKIES) {
    const value = cookies[name];
    if (value !== undefined && !isAcceptableCallbackUrl(value, publicUrl)) {
      delete cookies[name];
      cleared.push(name);
    }
  }

  let status = 200;
  const headers = new Headers();
  let sent: BodyInit | null = null;
  const res = {
    status(code: number) {
      status = code;
      return res;
    },
    getHeader: (name: string) => {
      const values = name.toLowerCase() === "set-cookie" ? headers.getSetCookie() : headers.get(name);
      return Array.isArray(values) && values.length === 0 ? undefined : (values ?? undefined);
    },
    setHeader(name: string, value: string | string[]) {
      headers.delete(name);
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      return res;
    },
    json(value: unknown) {
      headers.set("Content-Type", "application/json");
      sent = JSON.stringify(value);
      return res;
    },
    send(value: unknown) {
      sent =
        value === undefined || value === null
          ? null
          : typeof value === "string"
            ? value
            : JSON.stringify(value);
      return res;
    },
    end() {
      return res;
    },
  };
  const query: Record<string, string | string[]> = { ...Object.fromEntries(url.searchParams), nextauth };
  const req = {
    method: request.method,
    query,
    body,
    cookies,
    headers: Object.fromEntries(request.headers),
  };
  await NextAuth(req as unknown as NextApiRequest, res as unknown as NextApiResponse, authOptions());
  for (const name of cleared) {
    headers.append(
      "Set-Cookie",
      `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`,
    );
  }
  for (const [name, value] of Object.entries(FRAME_HEADERS)) headers.set(name, value);
  return new Response(status === 204 || status === 304 ? null : sent, { status, headers });
}

export const GET = pipeline(REST, async (request: NextRequest, context: Context) => {
  const { nextauth } = await context.params;
  return runNextAuth(request, nextauth, undefined);
});

export const POST = pipeline(REST, async (request: NextRequest, context: Context) => {
  const { nextauth } = await context.params;
  const body = await readBody(request);
  if (nextauth[0] === "callback" && nextauth[1] === "credentials") {
    await checkSignInLimits(String(body?.email ?? ""), clientIp(request.headers));
  }
  return runNextAuth(request, nextauth, body);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(REST, { GET, POST });
