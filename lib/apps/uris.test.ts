import { describe, expect, it } from "vitest";
import { checkRedirectUri, MAX_URI_LENGTH } from "./uris";

describe("checkRedirectUri", () => {
  it("accepts https in both environments", () => {
    for (const env of ["sandbox", "production"] as const) {
      expect(checkRedirectUri("https://app.example.com/callback", env)).toBeUndefined();
      expect(checkRedirectUri("https://app.example.com:8443/cb?tenant=a&x=1", env)).toBeUndefined();
    }
  });

  it("accepts http for any host in the sandbox", () => {
    expect(checkRedirectUri("http://app.example.com/callback", "sandbox")).toBeUndefined();
    expect(checkRedirectUri("http://10.0.0.5:3000/cb", "sandbox")).toBeUndefined();
  });

  it("accepts http in production only for loopback hosts", () => {
    expect(checkRedirectUri("http://localhost/cb", "production")).toBeUndefined();
    expect(checkRedirectUri("http://localhost:3000/cb", "production")).toBeUndefined();
    expect(checkRedirectUri("http://127.0.0.1:8080/cb", "production")).toBeUndefined();
    expect(checkRedirectUri("http://[::1]:8080/cb", "production")).toBeUndefined();
  });

  it("refuses http in production for other hosts, including look-alikes of localhost", () => {
    const message = "must use https in production (http is allowed only for localhost)";
    expect(checkRedirectUri("http://app.example.com/callback", "production")).toBe(message);
    expect(checkRedirectUri("http://localhost.evil.example/cb", "production")).toBe(message);
    expect(checkRedirectUri("http://127.0.0.2/cb", "production")).toBe(message);
    expect(checkRedirectUri("http://10.0.0.5/cb", "production")).toBe(message);
  });

  it("refuses fragments", () => {
    expect(checkRedirectUri("https://app.example.com/cb#section", "sandbox")).toBe(
      "must not contain a fragment (#…)",
    );
    expect(checkRedirectUri("https://app.example.com/cb#", "sandbox")).toBe(
      "must not contain a fragment (#…)",
    );
  });

  it("refuses relative URIs", () => {
    const message = "must be an absolute URI (for example https://example.com/callback)";
    expect(checkRedirectUri("/callback", "sandbox")).toBe(message);
    expect(checkRedirectUri("callback", "sandbox")).toBe(message);
    expect(checkRedirectUri("//app.example.com/cb", "sandbox")).toBe(message);
  });

  it("refuses dangerous schemes in any case", () => {
    expect(checkRedirectUri("javascript:alert(1)", "sandbox")).toBe("the javascript scheme is not allowed");
    expect(checkRedirectUri("JavaScript:alert(1)", "sandbox")).toBe("the javascript scheme is not allowed");
    expect(checkRedirectUri("data:text/html,<script>alert(1)</script>", "sandbox")).toBe(
      "the data scheme is not allowed",
    );
    expect(checkRedirectUri("file:///etc/passwd", "sandbox")).toBe("the file scheme is not allowed");
    expect(checkRedirectUri("vbscript:msgbox(1)", "sandbox")).toBe("the vbscript scheme is not allowed");
  });

  it("refuses user credentials", () => {
    expect(checkRedirectUri("https://user:pass@app.example.com/cb", "sandbox")).toBe(
      "must not contain user credentials",
    );
    expect(checkRedirectUri("https://user@app.example.com/cb", "sandbox")).toBe(
      "must not contain user credentials",
    );
  });

  it("refuses whitespace anywhere", () => {
    expect(checkRedirectUri("https://app.example.com/a b", "sandbox")).toBe("must not contain whitespace");
    expect(checkRedirectUri(" https://app.example.com/cb", "sandbox")).toBe("must not contain whitespace");
    expect(checkRedirectUri("https://app.example.com/cb\n", "sandbox")).toBe("must not contain whitespace");
    expect(checkRedirectUri("https://app.example.com/\tcb", "sandbox")).toBe("must not contain whitespace");
  });

  it("refuses empty values", () => {
    expect(checkRedirectUri("", "sandbox")).toBe("must not be empty");
  });

  it(`accepts ${MAX_URI_LENGTH} characters and refuses one more`, () => {
    const prefix = "https://app.example.com/";
    const exact = prefix + "a".repeat(MAX_URI_LENGTH - prefix.length);
    expect(exact).toHaveLength(MAX_URI_LENGTH);
    expect(checkRedirectUri(exact, "production")).toBeUndefined();
    expect(checkRedirectUri(`${exact}a`, "production")).toBe(`must be at most ${MAX_URI_LENGTH} characters`);
  });

  it("accepts reverse-domain private-use schemes for native apps", () => {
    expect(checkRedirectUri("com.example.app:/cb", "production")).toBeUndefined();
    expect(checkRedirectUri("com.example.app:/oauth2redirect", "sandbox")).toBeUndefined();
  });

  it("refuses private-use schemes that are not reverse domain names", () => {
    const message =
      "must use https, http (localhost) or a reverse-domain private-use scheme such as com.example.app:";
    expect(checkRedirectUri("myapp:/cb", "sandbox")).toBe(message);
    expect(checkRedirectUri("myapp:/cb", "production")).toBe(message);
    expect(checkRedirectUri("mailto:someone@example.com", "sandbox")).toBe(message);
  });
});
