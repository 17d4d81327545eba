/**
 * How an authorization answer reaches the client: the response modes (OAuth 2.0 Multiple Response
 * Type Encoding Practices §2.1, OAuth 2.0 Form Post Response Mode). /auth and the resume describe
 * an answer (TAuthorizationAnswer: where, which parameters, which mode); handlers.ts delivers it
 * through answerResponse — one place that builds the query or the form, never two.
 * Rules:
 * - modes: `query` (the default: a 303 to the redirect_uri with the parameters added to its query)
 *   and `form_post` (an HTML page that POSTs the parameters, application/x-www-form-urlencoded, to
 *   the redirect_uri). `fragment` is not offered for the code flow, `jwt` (JARM) not at all: both
 *   are refused at /auth as invalid_request (check-response-type.ts);
 * - the mode applies to every answer once client_id and redirect_uri are validated: the code, and
 *   each error (at /auth and at the resume). A response_mode that is itself wrong (unknown, sent
 *   twice) is answered in the default mode (query), as the mode asked for cannot be trusted;
 * - the form_post page: hidden inputs, every value HTML-escaped (the action too); it submits
 *   itself with one inline script allowed by the page's Content-Security-Policy by its SHA-256
 *   (no other script, no style, nothing loaded), and shows a Continue button to a browser without
 *   script; the end-user headers (no-store, no referrer, never framed). The policy has no
 *   form-action: browsers apply form-action to the redirects after the POST too, so it would break
 *   a client whose callback redirects to another host; the one form's action is ours and escaped.
 */
import { createHash } from "node:crypto";
import { PAGE_HEADERS } from "../../http/security-headers.mjs";

export type TResponseMode = "query" | "form_post";

export interface TAuthorizationAnswer {
  /** the validated redirect_uri */
  redirectUri: string;
  /** code or error (+ error_description), then state and iss (RFC 9207), in that order */
  params: [string, string][];
  mode: TResponseMode;
}

/**
 * The mode the request asked for if it is one we deliver in, else the default (query). `params`
 * is an authorization request's (./params.ts TAuthorizationParams), named by its shape here:
 * params.ts's errors are this module's dependents' (authorization-error.ts), not its own.
 */
export function requestedResponseMode(params: {
  values: Readonly<Record<string, string>>;
  repeated: ReadonlySet<string>;
}): TResponseMode {
  return !params.repeated.has("response_mode") && params.values.response_mode === "form_post"
    ? "form_post"
    : "query";
}

/** A stored request's mode (oidc_authorization_requests.response_mode: null is the default). */
export function storedResponseMode(value: string | null | undefined): TResponseMode {
  return value === "form_post" ? "form_post" : "query";
}

/** The query mode's address: the redirect_uri with the answer's parameters set in its query. */
export function answerRedirectUrl(answer: Pick<TAuthorizationAnswer, "redirectUri" | "params">): string {
  const url = new URL(answer.redirectUri);
  for (const [name, value] of answer.params) url.searchParams.set(name, value);
  return url.toString();
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** The page's only script: submit the form (through the prototype: no input can shadow submit). */
export const FORM_POST_SCRIPT = "HTMLFormElement.prototype.submit.call(document.forms[0]);";

/** base64 SHA-256 of FORM_POST_SCRIPT, for the page's script-src. */
export const FORM_POST_SCRIPT_SHA256 = createHash("sha256").update(FORM_POST_SCRIPT, "utf8").digest("base64");

export const FORM_POST_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${FORM_POST_SCRIPT_SHA256}'`,
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The form_post page (HTML) for `answer`. */
export function formPostHtml(answer: Pick<TAuthorizationAnswer, "redirectUri" | "params">): string {
  const inputs = answer.params
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Returning to the application</title>
</head>
<body>
<form method="post" action="${escapeHtml(answer.redirectUri)}">
${inputs}
<noscript><p>JavaScript is off: continue to the application with the button below.</p></noscript>
<button type="submit">Continue</button>
</form>
<script>${FORM_POST_SCRIPT}</script>
</body>
</html>
`;
}

/** The answer delivered: a 303 to the redirect_uri (query) or the self-submitting form (form_post). */
export function answerResponse(answer: TAuthorizationAnswer): Response {
  if (answer.mode === "query") {
    return new Response(null, {
      status: 303,
      headers: { Location: answerRedirectUrl(answer), "Cache-Control": "no-store" },
    });
  }
  return new Response(formPostHtml(answer), {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      ...PAGE_HEADERS,
      "Content-Security-Policy": FORM_POST_CSP,
    },
  });
}
