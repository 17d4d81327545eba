/**
 * A Response whose body is a string the handler already holds — every JSON answer of the API and
 * the OpenID Provider. It is a real `Response` (status, headers, `text()`, `json()`, `body`, …), but
 * its byte stream is made only when something asks for it: a Web `Response` made with a body
 * builds a ReadableStream at once, and on Node 20 that stream (made transferable) and reading it
 * back cost about as much as the rest of a cached JWKS answer (docs/benchmarks.md). The production
 * server's fast path (server/fast-path.mjs, server/web.mjs) takes the string through `BUFFERED_BODY` and writes
 * it in one piece; Next.js, tests and any other reader go through the ordinary Response methods.
 */

/** The body of a BufferedResponse nobody has read yet, else undefined (server/web.mjs). */
export const BUFFERED_BODY: unique symbol = Symbol.for("idv.buffered-body") as never;

export class BufferedResponse extends Response {
  readonly #text: string;
  /** the ordinary Response holding the body, made the first time the body is asked for */
  #inner: Response | undefined;

  constructor(text: string, init?: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** The text, unless the body has been handed out as a stream or read. */
  get [BUFFERED_BODY](): string | undefined {
    return this.#inner ? undefined : this.#text;
  }

  #body(): Response {
    return (this.#inner ??= new Response(this.#text));
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#body().body;
  }

  override get bodyUsed(): boolean {
    return this.#inner?.bodyUsed ?? false;
  }

  override text(): Promise<string> {
    return this.#body().text();
  }

  override json(): Promise<unknown> {
    return this.#body().json();
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#body().arrayBuffer();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#body().bytes();
  }

  override blob(): Promise<Blob> {
    return this.#body().blob();
  }

  override formData(): Promise<FormData> {
    return this.#body().formData();
  }

  override clone(): Response {
    const init = { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) };
    if (!this.#inner) return new BufferedResponse(this.#text, init);
    // as Response.clone: a TypeError once the body is used, else both get a branch of the stream
    const copy = this.#inner.clone();
    return new Response(copy.body, init);
  }
}
