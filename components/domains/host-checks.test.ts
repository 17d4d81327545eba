import { describe, expect, it } from "vitest";
import { hostPairProblems, hostProblem } from "./host-checks";

describe("hostProblem", () => {
  it.each([
    ["", /Enter a host name/],
    ["   ", /Enter a host name/],
    ["https://verify.example.com", /without https:\/\//],
    ["//verify.example.com", /without https:\/\//],
    ["user@verify.example.com", /without a user name/],
    ["verify.example.com/path", /without a path/],
    ["verify.example.com?x", /without a path/],
    ["*.example.com", /Wildcards/],
    ["203.0.113.5", /not an IP address/],
    ["203.0.113.5:443", /not an IP address/],
    ["[2001:db8::1]", /not an IP address/],
    ["2001:db8::1", /not an IP address/],
    ["verify.example.com:8443", /without a port/],
    ["verify example.com", /no spaces/],
    ["localhost", /full host name/],
  ])("refuses %j", (value, message) => {
    expect(hostProblem(value)).toMatch(message);
  });

  it.each(["verify.example.com", " Verify.Example.COM. ", "auth.shop.example.co.uk", "bücher.example.de"])(
    "leaves %j to the API",
    (value) => {
      expect(hostProblem(value)).toBeUndefined();
    },
  );
});

describe("hostPairProblems", () => {
  it("names each field, and the OIDC host when both are the same", () => {
    expect(hostPairProblems("https://a.example.com", "")).toEqual({
      webDomain: expect.stringMatching(/https/),
      oidcDomain: expect.stringMatching(/Enter a host name/),
    });
    expect(hostPairProblems("verify.example.com", "VERIFY.example.com.")).toEqual({
      oidcDomain: expect.stringMatching(/different host/),
    });
    expect(hostPairProblems("verify.example.com", "auth.example.org")).toEqual({});
  });
});
