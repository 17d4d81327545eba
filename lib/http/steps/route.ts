/**
 * withApi's route (lib/http/api.ts): what it keeps from module load on, checked there, and — the
 * first step of a request — the path parameters of the route directory, as strings.
 */
import type { TAppRowRead } from "../../auth/app-credentials";
import type { Db } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { pathParamNames, type EndpointDef } from "../endpoint";
import type { ApiResult } from "./response";

/** What a handler gets, untyped (withApi's overloads type it from the endpoint definition). */
export interface THandlerContext {
  request: Request;
  url: URL;
  requestId: string;
  env: TEnvironment;
  params: Record<string, string>;
  auth: unknown;
  body: unknown;
  query: unknown;
  db: Db;
  logVerification: (verificationId: string) => void;
  /** present only on routes that read their row with the credential (`authWith`) */
  authRow?: unknown;
}

export type THandler = (ctx: THandlerContext) => Promise<ApiResult>;

/** A route as withApi keeps it from module load on. */
export interface TApiRoute {
  def: EndpointDef;
  /** the parameters the definition's path names, in order */
  paramNames: string[];
  authWith: TAppRowRead<unknown> | undefined;
  handler: THandler;
}

/**
 * The route of `withApi(def, handler)` or `withApi(def, { authWith }, handler)`. Throws, at module
 * load, for the programming errors: no handler; `authWith` without app auth or on a parameter
 * the path does not name.
 */
export function prepareRoute(
  def: EndpointDef,
  second: ((ctx: never) => Promise<ApiResult>) | { authWith: TAppRowRead<unknown> },
  third?: (ctx: never) => Promise<ApiResult>,
): TApiRoute {
  const paramNames = pathParamNames(def.path);
  const authWith = typeof second === "function" ? undefined : second.authWith;
  const typed = typeof second === "function" ? second : third;
  if (!typed) throw new Error(`${def.operationId}: withApi without a handler`);
  if (authWith && (def.auth !== "app" || !paramNames.includes(authWith.param)))
    throw new Error(`${def.operationId}: authWith needs app auth and the path parameter "${authWith.param}"`);
  return { def, paramNames, authWith, handler: typed as THandler };
}

/**
 * The route's path parameters (Next.js hands them as string | string[] | undefined): the strings,
 * each one the definition's path names present — a route directory that disagrees with its
 * definition is a programming error (500).
 */
export function pathParams(
  route: TApiRoute,
  raw: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === "string") params[k] = v;
  for (const name of route.paramNames) {
    if (params[name] === undefined) throw new Error(`${route.def.operationId}: no path parameter "${name}"`);
  }
  return params;
}
