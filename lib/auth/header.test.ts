import { describe, expect, it } from "vitest";
import { parseAuthorization } from "./header";

const basic = (credentials: string) => `Basic ${Buffer.from(credentials, "utf8").toString("base64")}`;

describe("parseAuthorization", () => {
  it("reads a missing or blank header as none", () => {
    expect(parseAuthorization(null)).toEqual({ scheme: "none" });
    expect(parseAuthorization("")).toEqual({ scheme: "none" });
    expect(parseAuthorization("   ")).toEqual({ scheme: "none" });
  });

  it("reads a Bearer token, whatever the scheme's case", () => {
    expect(parseAuthorization("Bearer sk_workspace_test_abc")).toEqual({
      scheme: "bearer",
      token: "sk_workspace_test_abc",
    });
    expect(parseAuthorization("bearer tok")).toEqual({ scheme: "bearer", token: "tok" });
    expect(parseAuthorization("BEARER tok")).toEqual({ scheme: "bearer", token: "tok" });
    expect(parseAuthorization("  Bearer   tok  ")).toEqual({ scheme: "bearer", token: "tok" });
  });

  it("reads Basic credentials, keeping colons in the secret", () => {
    expect(parseAuthorization(basic("app_01:cs_test_secret"))).toEqual({
      scheme: "basic",
      username: "app_01",
      password: "cs_test_secret",
    });
    expect(parseAuthorization(basic("client:se:cr:et"))).toEqual({
      scheme: "basic",
      username: "client",
      password: "se:cr:et",
    });
    expect(parseAuthorization(basic("client:"))).toEqual({
      scheme: "basic",
      username: "client",
      password: "",
    });
    expect(parseAuthorization(`basic ${Buffer.from("a:b").toString("base64")}`)).toEqual({
      scheme: "basic",
      username: "a",
      password: "b",
    });
  });

  it("form-urldecodes Basic credentials (RFC 6749 §2.3.1)", () => {
    expect(parseAuthorization(basic("my%20client:p%40ss%3Aword"))).toEqual({
      scheme: "basic",
      username: "my client",
      password: "p@ss:word",
    });
    expect(parseAuthorization(basic("my+client:a+b"))).toEqual({
      scheme: "basic",
      username: "my client",
      password: "a b",
    });
    expect(parseAuthorization(basic("caf%C3%A9:x"))).toEqual({
      scheme: "basic",
      username: "café",
      password: "x",
    });
  });

  it("keeps a Basic value as is when it is not valid percent-encoding", () => {
    expect(parseAuthorization(basic("client:100%"))).toEqual({
      scheme: "basic",
      username: "client",
      password: "100%",
    });
  });

  it("reads everything else as malformed", () => {
    expect(parseAuthorization("Bearer")).toEqual({ scheme: "malformed" });
    expect(parseAuthorization("sk_workspace_test_abc")).toEqual({ scheme: "malformed" });
    expect(parseAuthorization("Bearer a b")).toEqual({ scheme: "malformed" });
    expect(parseAuthorization("Token abc")).toEqual({ scheme: "malformed" });
    expect(parseAuthorization("Digest abc")).toEqual({ scheme: "malformed" });
    expect(parseAuthorization(basic("no-colon-here"))).toEqual({ scheme: "malformed" });
    expect(parseAuthorization(basic(":secret"))).toEqual({ scheme: "malformed" });
    expect(parseAuthorization("Basic")).toEqual({ scheme: "malformed" });
  });
});
