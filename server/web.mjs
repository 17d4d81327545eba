/**
 * The bridge between node:http and the Fetch API, for the production server (server/production.mjs)
 * and its fast path (server/fast-path.mjs): a Node request's headers as Web Headers, and a Web
 * Response written to a Node response.
 */

export const BODYLESS = new Set(["GET", "HEAD"]);

export function webHeaders(req) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.append(name, value);
  }
  return headers;
}

/** lib/http/buffered-response.ts BUFFERED_BODY */
export const BUFFERED_BODY = Symbol.for("idv.buffered-body");

/**
 * Writes a Web Response to the Node response: a BufferedResponse's text (JSON answers,
 * lib/http/buffered-response.ts) or a body of one chunk in one write with its Content-Length,
 * longer ones streamed.
 */
export async function writeResponse(res, response, extraHeaders) {
  const headers = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  for (const [name, value] of Object.entries(extraHeaders)) headers[name.toLowerCase()] = value;
  const text = response[BUFFERED_BODY];
  if (typeof text === "string") {
    headers["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  if (!response.body) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const first = await reader.read();
  const second = first.done ? first : await reader.read();
  if (second.done) {
    const body = first.done ? undefined : first.value;
    headers["content-length"] = String(body?.byteLength ?? 0);
    res.writeHead(response.status, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, headers);
  res.once("close", () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  });
  res.write(first.value);
  let chunk = second;
  while (!chunk.done) {
    if (!res.write(chunk.value)) await new Promise((resolve) => res.once("drain", resolve));
    chunk = await reader.read();
  }
  res.end();
}
