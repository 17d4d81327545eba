/**
 * The OP's own HTML: the error page (client_id or redirect_uri cannot be trusted, or a sign-in
 * that cannot be answered) and the branded provider picker. Plain server-rendered HTML: it must
 * work without scripts, and every interpolated value is escaped.
 * Rules: the picker shows the app's name and logo and only providers the request can use; each
 * choice re-enters /auth with the same parameters plus `provider`, so no state is kept between.
 */
import type { TProviderDefinition } from "../../providers/catalog";
import type { AuthorizationError } from "./authorization-error";

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string, lang = "en"): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#111}
h1{font-size:1.4rem}ul{list-style:none;padding:0}li a{display:flex;gap:.75rem;align-items:center;padding:.75rem 1rem;margin:.5rem 0;border:1px solid #ccc;border-radius:.5rem;text-decoration:none;color:inherit}
li a:hover{border-color:#333}.brand{display:flex;gap:.75rem;align-items:center}.brand img{max-height:48px;max-width:120px}.muted{color:#555}</style>
</head><body>${body}</body></html>`;
}

const HTML_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy":
    "default-src 'none'; img-src data: https:; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
};

export function errorPage(error: AuthorizationError, status = 400): Response {
  const body = `<h1>This sign-in cannot continue</h1>
<p id="error" data-error="${escapeHtml(error.code)}">${escapeHtml(error.message)}</p>
<p class="muted">Go back to the application you came from and try again. If this keeps happening, contact the application's support.</p>`;
  return new Response(layout("Sign-in error", body), { status, headers: HTML_HEADERS });
}

export interface TPickerInput {
  appName: string;
  appLogo: string | null;
  providers: TProviderDefinition[];
  /** the authorization request's parameters, to repeat with provider added */
  search: URLSearchParams;
  lang?: string;
}

export function pickerPage(input: TPickerInput): Response {
  const items = input.providers
    .map((p) => {
      const q = new URLSearchParams(input.search);
      q.set("provider", p.id);
      return `<li><a href="auth?${escapeHtml(q.toString())}" data-provider="${escapeHtml(p.id)}"><strong>${escapeHtml(p.name)}</strong><span class="muted">${escapeHtml(p.countries.join(", "))}</span></a></li>`;
    })
    .join("\n");
  const logo =
    input.appLogo && /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,/.test(input.appLogo)
      ? `<img src="${escapeHtml(input.appLogo)}" alt="">`
      : "";
  const body = `<div class="brand">${logo}<h1>Sign in to ${escapeHtml(input.appName)}</h1></div>
<p>Choose how to prove your identity:</p>
<ul>${items}</ul>`;
  return new Response(layout(`Sign in to ${input.appName}`, body, input.lang), {
    status: 200,
    headers: HTML_HEADERS,
  });
}
