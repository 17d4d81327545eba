/**
 * The `oidc` connection adapter: an OpenID Provider upstream (lib/providers/adapters/oidc.ts).
 * Rules:
 * - settings: the adapter's configuration; the client secret and the two private JWKs are
 *   secrets; an `http:` issuer only with allowInsecureRequests;
 * - any catalog provider may run on it (a redirect sign-in);
 * - sign-in: authorization code with PKCE, state and nonce; the answer is the redirect to the
 *   one callback {PUBLIC_URL}/verify/callback, bound by its `state` parameter;
 * - check: discovery and JWKS (./oidc-check.ts).
 */
import { z } from "zod";
import { publicUrl } from "../../config";
import {
  beginOidcAuthorization,
  completeOidcAuthorization,
  ZOidcSavedState,
  type TOidcSavedState,
} from "../../providers/adapters/oidc";
import { ZOidcUpstreamConfig, type TOidcUpstreamConfig } from "../../providers/adapters/oidc-settings";
import { checkOidcIssuer } from "./oidc-check";
import type { TConnectionAdapterModule } from "./types";

/** The one callback URL of every OpenID Provider upstream (register it there). */
export function upstreamCallbackUrl(): string {
  return `${publicUrl()}/verify/callback`;
}

/** The OIDC settings as a PUT may send them: the adapter's, with the client secret optional. */
const oidcShape = ZOidcUpstreamConfig.shape;
const ZOidcSettingsInput = z
  .object({ ...oidcShape, clientSecret: oidcShape.clientSecret.optional() })
  .strict()
  .refine((c) => c.allowInsecureRequests === true || !c.issuer.startsWith("http:"), {
    path: ["issuer"],
    message: "must use https (or set allowInsecureRequests: true, for local testing only)",
  });

export const oidcConnectionAdapter: TConnectionAdapterModule<"oidc", TOidcUpstreamConfig, TOidcSavedState> = {
  id: "oidc",
  settings: {
    input: ZOidcSettingsInput,
    full: ZOidcUpstreamConfig,
    secretFields: ["clientSecret", "privateKeyJwk", "idTokenDecryptionKey"],
  },
  refuses: () => null,
  connectionJson: (_row, secrets) => ({ clientSecretSet: Boolean(secrets.clientSecret) }),
  check: checkOidcIssuer,
  signIn: {
    answer: "redirect_query",
    answerName: "OIDC callback",
    stateSchema: ZOidcSavedState,
    async begin(settings) {
      const { url, saved } = await beginOidcAuthorization(settings, upstreamCallbackUrl());
      return { url, state: saved, binding: saved.state };
    },
    bindingOf: (answer) =>
      answer.channel === "redirect_query" ? (answer.url.searchParams.get("state") ?? undefined) : undefined,
    async complete(settings, state, answer) {
      if (answer.channel !== "redirect_query")
        return { outcome: { kind: "failure", reason: "invalid_response", origin: "callback" } };
      return {
        outcome: await completeOidcAuthorization(settings, upstreamCallbackUrl(), answer.url, state),
      };
    },
  },
};
