// HTTP for the benchmark and fault scripts: one request that never throws, a cookie jar, status
// checks and client credentials.

/** Cookies by name; sent on every request of its owner (all on one loopback host). */
export class CookieJar {
  cookies = new Map();
  store(headers) {
    for (const line of headers.getSetCookie?.() ?? []) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/**
 * One request; redirects are not followed unless `followRedirects`. Never throws: a connection
 * failure is status "conn-error", no answer within `timeoutMs` is "timeout". `url` may be a path
 * (on `base`) or an absolute address, whose path and query are then sent to `base` (our server
 * names itself by its PUBLIC_URL, which may differ from the address a script reaches it on).
 * Cookies come from `jar` (which also keeps the answer's) or, without one, from `cookie`.
 */
export async function call(
  base,
  method,
  url,
  { auth, body, form, jar, cookie, headers = {}, followRedirects = false, timeoutMs = 15_000 } = {},
) {
  const started = performance.now();
  const target = new URL(url, base);
  const address = new URL(`${target.pathname}${target.search}`, base);
  const h = { ...headers };
  if (auth) h.authorization = auth;
  if (jar?.cookies.size) h.cookie = jar.header();
  else if (cookie) h.cookie = cookie;
  let payload;
  if (form) {
    h["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    h["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  try {
    const res = await fetch(address, {
      method,
      headers: h,
      body: payload,
      redirect: followRedirects ? "follow" : "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    jar?.store(res.headers);
    const text = await res.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, body: json, text, ms: performance.now() - started };
  } catch (err) {
    const timeout = err.name === "TimeoutError" || err.name === "AbortError";
    return { status: timeout ? "timeout" : "conn-error", error: err, ms: performance.now() - started };
  }
}

/** The answer's JSON body when it has `status`; otherwise throws, naming `what` was attempted. */
export function expectStatus(res, status, what) {
  if (res.status !== status)
    throw new Error(
      `${what}: expected ${status}, got ${res.status} ${(res.text ?? res.error?.message ?? "").slice(0, 300)}`,
    );
  return res.body;
}

export const basicAuth = (id, secret) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
