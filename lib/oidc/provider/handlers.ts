/**
 * Request → answer for the browser-facing OP endpoints (/auth, /select, /resume); the two public
 * documents are in documents.ts. Route files stay thin: they parse the environment and call these. The
 * browser endpoints answer a redirect (a Response) or a page (TOpPage, ./page.ts), which the route
 * renders in the hosted frame (app/oidc/_lib/op-page.ts); an answer to the client is delivered in
 * its response mode (a redirect or the form_post page: ./form-post.ts).
 */
import { kysely } from "../../db/client";
import { inTransaction } from "../../db/kysely";
import type { TEnvironment } from "../../environments";
import { AuthorizationError } from "./authorization-error";
import { authorize } from "./authorize";
import { answerResponse } from "./form-post";
import { requestIssuer } from "./issuer";
import { readAuthorizationParams, type TAuthorizationParams } from "./params";
import { errorPage, requestedLocale, type TOpPage, type TOpPickerPage } from "./page";
import { limitAuthorizationRequest } from "./rate-limit";
import { resumeAuthorization } from "./resume";
import { servedApp, servesApp } from "../../domains/served-app";
import { OIDC_BINDING_COOKIE } from "../../hosted/binding";
import { readCookie } from "../../hosted/upstream-cookie";
import { providerLogoDataUrl } from "../../hosted/view";
import type { TProviderDefinition } from "../../providers/catalog";
import { pageError } from "./authorization-error";

function redirect(url: string, headers: Record<string, string> = {}): Response {
  return new Response(null, {
    status: 303,
    headers: { Location: url, "Cache-Control": "no-store", ...headers },
  });
}

/** Only an image data: URL is shown as the app's logo (the API accepts nothing else). */
const LOGO = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,/;

/** The picker of an app's usable providers, with their catalog logos inlined. */
export function pickerPage(input: {
  environment: TEnvironment;
  app: { name: string; logo: string | null };
  providers: TProviderDefinition[];
  search: URLSearchParams;
  locale?: string;
}): TOpPickerPage {
  const { app } = input;
  return {
    kind: "picker",
    environment: input.environment,
    app: { name: app.name, ...(app.logo && LOGO.test(app.logo) ? { logo: app.logo } : {}) },
    providers: input.providers.map((p) => {
      const logo = providerLogoDataUrl(p.id);
      return { id: p.id, name: p.name, countries: [...p.countries], ...(logo ? { logo } : {}) };
    }),
    search: input.search,
    ...(input.locale ? { locale: input.locale } : {}),
  };
}

/** /auth (GET or POST) and /select: the checks, then the picker or the hosted page. */
export async function handleAuthorizationRequest(
  request: Request,
  environment: TEnvironment,
  options: { picker: "redirect" | "render" },
): Promise<Response | TOpPage> {
  const limited = await limitAuthorizationRequest(request);
  if (limited) return limited;
  let params: TAuthorizationParams | undefined;
  // the error page, in the request's ui_locales once they could be read
  const refuse = (error: AuthorizationError, status = 400): TOpPage => {
    const locale = requestedLocale(params);
    return errorPage(error, status, locale ? { locale } : {});
  };
  try {
    const read = await readAuthorizationParams(request);
    params = read;
    // a custom OIDC domain serves its own app only: any other client_id is no client of this host
    // (an error page, never a redirect: the client is not trusted here; lib/domains/served-app.ts)
    const clientId = read.values.client_id;
    if (servedApp(request.headers) !== undefined && !(clientId && servesApp(request.headers, clientId)))
      return refuse(
        pageError(`client_id: no client "${(clientId ?? "").slice(0, 64)}" at this address`),
        404,
      );
    const db = kysely();
    const outcome = await inTransaction(db, (tx) =>
      authorize(tx, {
        environment,
        params: read,
        issuerFor: (clientId) => requestIssuer(tx, environment, request, clientId),
      }),
    );
    if (outcome.kind === "error_page") return refuse(outcome.error);
    if (outcome.kind === "answer") return answerResponse(outcome.answer);
    if (outcome.kind === "redirect")
      return redirect(outcome.url, outcome.cookie ? { "Set-Cookie": outcome.cookie } : {});
    const search = new URLSearchParams();
    // a pushed request's picker carries its request_uri, not its parameters (./request-source.ts)
    for (const [name, value] of Object.entries(outcome.search ?? read.values)) search.set(name, value);
    if (options.picker === "redirect") return redirect(`select?${search.toString()}`);
    return pickerPage({
      environment,
      app: outcome.app,
      providers: outcome.providers,
      search,
      ...(outcome.locale ? { locale: outcome.locale } : {}),
    });
  } catch (err) {
    if (err instanceof AuthorizationError) return refuse(err);
    // anything unexpected (500) or a database out of reach (503): the pipeline's error page
    throw err;
  }
}

/** /resume/{resumeToken}: the answer to the client, for the browser that started the sign-in. */
export async function handleResume(
  request: Request,
  environment: TEnvironment,
  resumeToken: string,
): Promise<Response | TOpPage> {
  try {
    const outcome = await inTransaction(kysely(), (tx) =>
      resumeAuthorization(tx, {
        environment,
        resumeToken,
        bindingSecret: readCookie(request.headers.get("cookie"), OIDC_BINDING_COOKIE),
        proof: new URL(request.url).searchParams.get("p") ?? undefined,
        // a custom OIDC domain answers only for its own app's sign-ins (lib/domains/served-app.ts)
        servesApp: (appId) => servesApp(request.headers, appId),
        issuerFor: (clientId) => requestIssuer(tx, environment, request, clientId),
      }),
    );
    if (outcome.kind === "answer") return answerResponse(outcome.answer);
    return outcome.kind === "redirect" ? redirect(outcome.url) : outcome;
  } catch (err) {
    // anything unexpected (500) or a database out of reach (503): the pipeline's error page
    throw err;
  }
}
