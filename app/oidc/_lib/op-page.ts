/**
 * The OpenID Provider's pages as answers: the picker and the error page of lib/oidc/provider/page.ts
 * rendered in the hosted frame (components/verify/op-pages.tsx), and OP_PAGE, the pipeline surface
 * of /auth, /select and /resume, whose errors (405, 413, 500, 503 …) are the same error page.
 * Rules:
 * - the status is the page's own (an error keeps its 400, 404, 429 …; the picker is 200), never a
 *   redirect; the error's headers (Retry-After, Allow) are kept;
 * - the language is negotiated as on the hosted pages (lib/hosted/i18n pickLocale): the request's
 *   ui_locales, then Accept-Language, then English;
 * - the end-user security headers (lib/http/security-headers.mjs); the CSP allows no script, the
 *   inline stylesheet by its hash, and data: images.
 */
import { OP_PAGE_CSS_SHA256 } from "@/components/verify/op-page-styles";
import { renderOpPage } from "@/components/verify/op-pages";
import { pickLocale } from "@/lib/hosted/i18n";
import type { TSurface } from "@/lib/http/pipeline";
import { PAGE_HEADERS, staticPageCsp } from "@/lib/http/security-headers.mjs";
import { pipelineErrorPage, type TOpPage } from "@/lib/oidc/provider/page";

export function opPageResponse(request: Request | undefined, page: TOpPage): Response {
  const locale = pickLocale(page.locale, request?.headers.get("accept-language") ?? null);
  return new Response(renderOpPage(page, locale), {
    status: page.kind === "error" ? page.status : 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      ...PAGE_HEADERS,
      "Content-Security-Policy": staticPageCsp(OP_PAGE_CSS_SHA256),
      ...(page.kind === "error" ? page.headers : {}),
    },
  });
}

/** A browser endpoint's answer: its redirect as it is, or its page rendered. */
export function opAnswer(request: Request, answer: Response | TOpPage): Response {
  return answer instanceof Response ? answer : opPageResponse(request, answer);
}

export const OP_PAGE: TSurface = {
  name: "op",
  error: (error, requestId, request) => opPageResponse(request, pipelineErrorPage(error, requestId)),
};
