import { describe, expect, it } from "vitest";
import { OAuthError } from "./errors";
import { MAX_TOKEN_REQUEST_BYTES, parseCodeGrant, readTokenParams } from "./token-request";

const post = (body: string | undefined, contentType?: string) =>
  new Request("http://localhost/api/sandbox/token", {
    method: "POST",
    body,
    headers: contentType ? { "content-type": contentType } : {},
  });

async function failure(promise: Promise<unknown> | (() => unknown)): Promise<OAuthError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (err) {
    if (err instanceof OAuthError) return err;
    throw err;
  }
  throw new Error("expected an OAuthError");
}

describe("readTokenParams", () => {
  it("reads form bodies, empty values counting as absent", async () => {
    const params = await readTokenParams(
      post(
        "grant_type=authorization_code&code=abc%2Bdef&redirect_uri=&x=1",
        "application/x-www-form-urlencoded; charset=UTF-8",
      ),
    );
    expect(params).toEqual({ grant_type: "authorization_code", code: "abc+def", x: "1" });
  });

  it("reads JSON bodies", async () => {
    const params = await readTokenParams(
      post(JSON.stringify({ grant_type: "authorization_code", code: "c", nonce: null }), "application/json"),
    );
    expect(params).toEqual({ grant_type: "authorization_code", code: "c" });
  });

  it("treats an empty body as no parameters", async () => {
    expect(await readTokenParams(post(undefined))).toEqual({});
    expect(await readTokenParams(post("", "application/json"))).toEqual({});
  });

  it("refuses repeated form parameters, naming them", async () => {
    const err = await failure(readTokenParams(post("code=a&code=b", "application/x-www-form-urlencoded")));
    expect([err.status, err.code]).toEqual([400, "invalid_request"]);
    expect(err.message).toContain("code");
  });

  it.each([
    ['{"code": 12}', "code"],
    ['{"grant_type": ["authorization_code"]}', "grant_type"],
  ])("refuses non-string JSON values: %s", async (body, name) => {
    const err = await failure(readTokenParams(post(body, "application/json")));
    expect([err.status, err.code]).toEqual([400, "invalid_request"]);
    expect(err.message).toContain(name);
  });

  it.each(["{not json", "[]", '"code"'])("refuses a JSON body that is not an object: %s", async (body) => {
    const err = await failure(readTokenParams(post(body, "application/json")));
    expect([err.status, err.code]).toEqual([400, "invalid_request"]);
  });

  it("refuses other media types with 415", async () => {
    const err = await failure(readTokenParams(post("code=a", "text/plain")));
    expect([err.status, err.code]).toEqual([415, "invalid_request"]);
    expect((await failure(readTokenParams(post("code=a")))).status).toBe(415);
  });

  it("refuses bodies over 64 KB with 413", async () => {
    const big = `grant_type=authorization_code&code=${"a".repeat(MAX_TOKEN_REQUEST_BYTES)}`;
    const err = await failure(readTokenParams(post(big, "application/x-www-form-urlencoded")));
    expect([err.status, err.code]).toEqual([413, "invalid_request"]);
    // exactly at the limit is fine
    const fits = `code=${"a".repeat(MAX_TOKEN_REQUEST_BYTES - 5)}`;
    expect((await readTokenParams(post(fits, "application/x-www-form-urlencoded"))).code).toHaveLength(
      MAX_TOKEN_REQUEST_BYTES - 5,
    );
  });
});

describe("parseCodeGrant", () => {
  it("accepts the authorization_code grant with its optional parameters", () => {
    expect(
      parseCodeGrant({ grant_type: "authorization_code", code: "c", code_verifier: "v", unknown: "ignored" }),
    ).toEqual({ grant_type: "authorization_code", code: "c", code_verifier: "v" });
  });

  it("reads a client assertion (private_key_jwt) next to the grant", () => {
    expect(
      parseCodeGrant({
        grant_type: "authorization_code",
        code: "c",
        client_id: "app_1",
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: "a.b.c",
      }),
    ).toEqual({
      grant_type: "authorization_code",
      code: "c",
      client_id: "app_1",
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: "a.b.c",
    });
  });

  it("requires grant_type", async () => {
    const err = await failure(() => parseCodeGrant({ code: "c" }));
    expect([err.status, err.code, err.message]).toEqual([400, "invalid_request", "grant_type: is required"]);
  });

  it("refuses other grant types", async () => {
    const err = await failure(() => parseCodeGrant({ grant_type: "client_credentials", code: "c" }));
    expect([err.status, err.code]).toEqual([400, "unsupported_grant_type"]);
    expect(err.message).toContain("grant_type");
  });

  it("requires code", async () => {
    const err = await failure(() => parseCodeGrant({ grant_type: "authorization_code" }));
    expect([err.status, err.code, err.message]).toEqual([400, "invalid_request", "code: is required"]);
  });
});
