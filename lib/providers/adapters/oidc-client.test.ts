import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { clientAuthMethodOf } from "./oidc-client";
import { ZOidcUpstreamConfig } from "./oidc-settings";

const valid = {
  issuer: "https://login.example-eid.test",
  clientId: "broker",
  clientSecret: "s3cret",
};

describe("clientAuthMethodOf", () => {
  const parsed = ZOidcUpstreamConfig.parse(valid);
  it("uses basic by default, post when the upstream offers only post, and the configured method", () => {
    expect(clientAuthMethodOf(parsed, {})).toBe("client_secret_basic");
    expect(
      clientAuthMethodOf(parsed, { token_endpoint_auth_methods_supported: ["client_secret_post"] }),
    ).toBe("client_secret_post");
    expect(clientAuthMethodOf({ ...parsed, clientAuthMethod: "client_secret_post" }, {})).toBe(
      "client_secret_post",
    );
  });

  it("uses private_key_jwt when only a private key is configured", () => {
    const privateKeyJwk = crypto
      .generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ format: "jwk" });
    const keyOnly = ZOidcUpstreamConfig.parse({ ...valid, clientSecret: undefined, privateKeyJwk });
    expect(
      clientAuthMethodOf(keyOnly, { token_endpoint_auth_methods_supported: ["client_secret_post"] }),
    ).toBe("private_key_jwt");
    expect(clientAuthMethodOf({ ...keyOnly, clientSecret: "s3cret" }, {})).toBe("client_secret_basic");
  });
});
