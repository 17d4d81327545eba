import { afterEach, describe, expect, it } from "vitest";
import { buildDiscovery } from "./discovery";
import { issuerForHost } from "./issuer";
import { errorRedirectUrl, AuthorizationError } from "./authorization-error";
import { checkPkce } from "./check-pkce";
import { paramsFromSearch } from "./params";

const saved = process.env.PUBLIC_URL;
afterEach(() => {
  // assigning undefined would store the string "undefined", which lib/config refuses
  if (saved === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = saved;
});

describe("issuerForHost", () => {
  it("uses the custom oidcDomain only when the Host is that active domain", () => {
    process.env.PUBLIC_URL = "https://idv.example.com/";
    expect(issuerForHost("sandbox", "login.shop.example", "login.shop.example")).toBe(
      "https://login.shop.example",
    );
    expect(issuerForHost("sandbox", "LOGIN.shop.example:443", "login.shop.example")).toBe(
      "https://login.shop.example",
    );
    expect(issuerForHost("production", "login.shop.example", undefined)).toBe(
      "https://idv.example.com/oidc/production",
    );
    expect(issuerForHost("sandbox", "other.example", "login.shop.example")).toBe(
      "https://idv.example.com/oidc/sandbox",
    );
    expect(issuerForHost("sandbox", null, undefined)).toBe("https://idv.example.com/oidc/sandbox");
  });
});

describe("discovery", () => {
  it("derives every endpoint from the issuer", () => {
    const doc = buildDiscovery("https://login.shop.example");
    expect(doc.authorization_endpoint).toBe("https://login.shop.example/auth");
    expect(doc.jwks_uri).toBe("https://login.shop.example/jwks");
    expect(doc.code_challenge_methods_supported).toEqual(["S256"]);
  });
});

describe("authorization errors and PKCE", () => {
  it("puts error, description, state and iss on the redirect_uri, keeping its query", () => {
    const url = new URL(
      errorRedirectUrl(
        { redirectUri: "https://rp.example/cb?x=1", state: "s", issuer: "https://op.example/oidc/sandbox" },
        new AuthorizationError("access_denied", "no"),
      ),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      x: "1",
      error: "access_denied",
      error_description: "no",
      state: "s",
      iss: "https://op.example/oidc/sandbox",
    });
  });

  it("accepts S256 or no PKCE and refuses plain", () => {
    const challenge = "a".repeat(43);
    expect(checkPkce(paramsFromSearch(new URLSearchParams()))).toBeUndefined();
    expect(
      checkPkce(
        paramsFromSearch(new URLSearchParams({ code_challenge: challenge, code_challenge_method: "S256" })),
      ),
    ).toBe(challenge);
    expect(() =>
      checkPkce(
        paramsFromSearch(new URLSearchParams({ code_challenge: challenge, code_challenge_method: "plain" })),
      ),
    ).toThrow(/S256/);
  });
});
