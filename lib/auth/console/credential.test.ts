import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../errors";
import { checkSameOrigin } from "./credential";

function write(
  origin: string | null,
  host = "127.0.0.1:3917",
  url = "http://127.0.0.1:3917/api/sandbox/v1/apps",
) {
  const headers = new Headers({ host });
  if (origin !== null) headers.set("origin", origin);
  return new Request(url, { method: "POST", headers });
}

function refusal(request: Request): string | undefined {
  try {
    checkSameOrigin(request);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return (err as ApiError).code;
  }
}

describe("checkSameOrigin (CSRF check of cookie-authenticated writes)", () => {
  const saved = process.env.PUBLIC_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });

  it("allows PUBLIC_URL's origin", () => {
    process.env.PUBLIC_URL = "http://127.0.0.1:3917";
    expect(refusal(write("http://127.0.0.1:3917"))).toBeUndefined();
  });

  it("refuses another name of the same service: localhost is not 127.0.0.1", () => {
    process.env.PUBLIC_URL = "http://127.0.0.1:3917";
    expect(refusal(write("http://localhost:3917", "localhost:3917", "http://localhost:3917/api/x"))).toBe(
      "CSRF_ORIGIN_MISMATCH",
    );
  });

  it("refuses an Origin that only a forged Host (or the request's own URL) vouches for", () => {
    process.env.PUBLIC_URL = "https://idv.example.com";
    expect(refusal(write("http://evil.example", "evil.example", "http://evil.example/api/x"))).toBe(
      "CSRF_ORIGIN_MISMATCH",
    );
    expect(refusal(write("https://evil.example", "evil.example"))).toBe("CSRF_ORIGIN_MISMATCH");
    expect(refusal(write("https://idv.example.com"))).toBeUndefined();
  });

  it("refuses a write without Origin", () => {
    process.env.PUBLIC_URL = "http://127.0.0.1:3917";
    expect(refusal(write(null))).toBe("CSRF_ORIGIN_MISMATCH");
  });
});
