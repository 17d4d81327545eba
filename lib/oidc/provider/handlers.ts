/**
 * Request → response for the browser-facing OP endpoints (/auth, /select, /resume) and the two
 * public documents. Route files stay thin: they parse the environment and call these.
 */
import { getDb } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { newId } from "../../ids";
import { logger } from "../../log";
import { ensureSigningKeys, publicJwks } from "../keys";
import { AuthorizationError } from "./authorization-error";
import { authorize } from "./authorize";
import { buildDiscovery, DISCOVERY_CACHE_CONTROL, JWKS_CACHE_CONTROL } from "./discovery";
import { resolveIssuer } from "./issuer";
import { readAuthorizationParams } from "./params";
import { errorPage, pickerPage } from "./pages";
import { resumeAuthorization } from "./resume";

function redirect(url: string): Response {
  return new Response(null, { status: 303, headers: { Location: url, "Cache-Control": "no-store" } });
}

function serverError(err: unknown, request: Request): Response {
  const requestId = newId("req");
  logger.error({ err, requestId, path: new URL(request.url).pathname }, "unhandled error");
  return errorPage(new AuthorizationError("server_error", `Something went wrong (${requestId})`, false), 500);
}

/** /auth (GET or POST) and /select: the checks, then the picker or the hosted page. */
export async function handleAuthorizationRequest(
  request: Request,
  environment: TEnvironment,
  options: { picker: "redirect" | "render" },
): Promise<Response> {
  try {
    const params = await readAuthorizationParams(request);
    const db = getDb();
    const outcome = await db.$transaction(
      (tx) =>
        authorize(tx, {
          environment,
          params,
          issuerFor: (clientId) => resolveIssuer(tx, environment, request, clientId),
        }),
      { timeout: 15_000, maxWait: 10_000 },
    );
    if (outcome.kind === "error_page") return errorPage(outcome.error);
    if (outcome.kind === "redirect") return redirect(outcome.url);
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params.values)) search.set(name, value);
    if (options.picker === "redirect") return redirect(`select?${search.toString()}`);
    const lang = params.values.ui_locales?.split(" ")[0];
    return pickerPage({
      appName: outcome.app.name,
      appLogo: outcome.app.logo,
      providers: outcome.providers,
      search,
      ...(lang ? { lang } : {}),
    });
  } catch (err) {
    if (err instanceof AuthorizationError) return errorPage(err);
    return serverError(err, request);
  }
}

export async function handleResume(
  request: Request,
  environment: TEnvironment,
  verificationId: string,
): Promise<Response> {
  try {
    const db = getDb();
    const outcome = await db.$transaction((tx) =>
      resumeAuthorization(tx, environment, verificationId, (clientId) =>
        resolveIssuer(tx, environment, request, clientId),
      ),
    );
    return outcome.kind === "redirect" ? redirect(outcome.url) : errorPage(outcome.error);
  } catch (err) {
    return serverError(err, request);
  }
}

function publicJson(body: unknown, cacheControl: string): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": cacheControl,
      "Access-Control-Allow-Origin": "*",
    },
  });
}

export async function handleDiscovery(request: Request, environment: TEnvironment): Promise<Response> {
  const issuer = await resolveIssuer(getDb(), environment, request);
  return publicJson(buildDiscovery(issuer), DISCOVERY_CACHE_CONTROL);
}

export async function handleJwks(environment: TEnvironment): Promise<Response> {
  const db = getDb();
  // a fresh deployment publishes its keys before the first token is signed
  await ensureSigningKeys(db, environment);
  return publicJson(await publicJwks(db, environment), JWKS_CACHE_CONTROL);
}
