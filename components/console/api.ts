/**
 * The console's client of the REST API: same-origin fetches under /api/{env}/v1 with the session
 * cookie, the workspace in X-Workspace-Id, and errors turned into ApiRequestError carrying the
 * envelope's code, message and details (so forms can put each message on its field).
 *
 * The REST API words its errors for API clients ("Invalid API key", "Use Bearer authentication");
 * the person signed in to the console holds no key: `personMessage` rewords those by code (and
 * any other message that speaks of API keys or headers) once, here, for every toast, alert and
 * field. A 401 that means "no session" (whatever the code) ends at the sign-in page.
 */
export interface ApiErrorDetail {
  path: string;
  message: string;
}

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ApiErrorDetail[] = [],
    readonly requestId?: string,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }

  /** The message of the detail whose path is `path` (or starts with `path.`/`path[`). */
  fieldError(path: string): string | undefined {
    return this.details.find(
      (d) => d.path === path || d.path.startsWith(`${path}.`) || d.path.startsWith(`${path}[`),
    )?.message;
  }
}

export type TEnv = "sandbox" | "production";

/** 401 codes that, for a console page, all mean the session is gone (no cookie reads as no key). */
const SESSION_ENDED_CODES = new Set([
  "INVALID_SESSION",
  "INVALID_API_KEY",
  "INVALID_AUTHORIZATION_SCHEME",
  "INVALID_OPERATOR_KEY",
]);

export const SESSION_ENDED_MESSAGE = "Your session has ended — sign in again.";
export const ROLE_FORBIDS_MESSAGE =
  "Your role does not allow this. Ask an owner or admin of the workspace if you need it.";

/** Wording meant for API clients, never shown to a person in the console. */
const API_CLIENT_WORDING = /\bAPI[ _-]?keys?\b|\bAuthorization header\b|\bBearer\b|\bsk_[a-z]+_/i;

/**
 * The API's error message as the console shows it to the person signed in: by code first, then
 * any message still worded for an API client by its status.
 */
export function personMessage(status: number, code: string, message: string): string {
  if (status === 401 && SESSION_ENDED_CODES.has(code)) return SESSION_ENDED_MESSAGE;
  if (code === "CSRF_ORIGIN_MISMATCH") {
    return "Changes can only be made from the console's own pages. Reload the page and try again.";
  }
  if (!API_CLIENT_WORDING.test(message)) return message;
  if (status === 401) return SESSION_ENDED_MESSAGE;
  if (status === 403) return ROLE_FORBIDS_MESSAGE;
  return "The service refused this request. Reload the page and try again.";
}

let workspaceId: string | undefined;
/** Set by the console shell once it knows the workspace being shown. */
export function setApiWorkspace(id: string | undefined): void {
  workspaceId = id;
}

export interface ApiRequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null | string[]>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function apiPath(env: TEnv, path: string, query?: ApiRequestOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) v.forEach((item) => params.append(k, item));
    else params.set(k, String(v));
  }
  const qs = params.toString();
  return `/api/${env}${path}${qs ? `?${qs}` : ""}`;
}

export async function api<T>(env: TEnv, path: string, options: ApiRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (workspaceId) headers["X-Workspace-Id"] = workspaceId;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(apiPath(env, path, options.query), {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new Error("The service could not be reached. Check your connection and try again.");
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (
      body as { error?: { code?: string; message?: string; details?: ApiErrorDetail[]; requestId?: string } }
    )?.error;
    const code = error?.code ?? `HTTP_${response.status}`;
    if (response.status === 401 && SESSION_ENDED_CODES.has(code) && typeof window !== "undefined") {
      // A full page load: the signed-out console must drop every cached query.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign(`/?expired=1&callbackUrl=${encodeURIComponent(window.location.pathname)}`);
    }
    const retryAfter = Number(response.headers.get("retry-after")) || undefined;
    throw new ApiRequestError(
      response.status,
      code,
      personMessage(response.status, code, error?.message ?? `The request failed (${response.status})`),
      error?.details ?? [],
      error?.requestId,
      retryAfter,
    );
  }
  return body as T;
}

/** A readable message for any error a query or mutation can throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError)
    return error.requestId ? `${error.message} (request ${error.requestId})` : error.message;
  if (error instanceof Error) return error.message;
  return "Something went wrong";
}

/** A form's own error line: the message of `error`, unless one of `fields` shows it at the field. */
export function formErrorMessage(error: unknown, ...fields: string[]): string | null {
  if (!error) return null;
  if (error instanceof ApiRequestError && fields.some((field) => error.fieldError(field))) return null;
  return errorMessage(error);
}
