/**
 * The `saml` connection adapter: a SAML 2.0 identity provider — an eIDAS node, SPID, CIE, Cl@ve,
 * DigiD … (lib/providers/adapters/saml.ts; settings and SP URLs: ../saml.ts).
 * Rules:
 * - settings: flat (certificates and private keys as separate fields; the adapter's key-pair
 *   objects are accepted too), the private keys are secrets, an encryption private key is kept
 *   only while its certificate is sent; a `metadataUrl` without `metadataXml` is fetched before
 *   the PUT's transaction;
 * - every provider whose sign-in is a redirect may run on it, never a wallet provider;
 * - sign-in: a signed HTTP-Redirect AuthnRequest; the answer is the IdP's cross-site HTTP-POST
 *   to the connection's ACS, bound by RelayState (the caller's `bind`, given the request's state);
 *   every refusal is the failure `authentication_failed`, its precise cause in `refusal`: all of
 *   them can be provoked by the end-user's own browser, so none counts against the connection;
 * - check: the IdP metadata (re-fetched from metadataUrl when set) and the certificates.
 */
import { kysely } from "../../db/client";
import {
  beginSamlAuthentication,
  completeSamlAuthentication,
  newSamlRequestId,
  ZSamlSavedState,
} from "../../providers/adapters/saml";
import { postgresSamlReplayCache } from "../../providers/adapters/saml-replay";
import type { TSamlUpstreamConfig } from "../../providers/adapters/saml-settings";
import {
  flatSamlKeyPairs,
  SAML_SECRET_FIELDS,
  samlServiceProviderUrls,
  withFetchedSamlMetadata,
  ZSamlConnectionConfig,
  ZSamlSettingsInput,
} from "../saml";
import { checkSamlConnection } from "../saml-check";
import type { TConnectionAdapterModule } from "./types";

/** The integrator's reason for every refused SAML response (the precise one is logged). */
export const SAML_REFUSED_REASON = "authentication_failed";

/** What a SAML sign-in needs at the ACS: its request (the RelayState is the caller's binding). */
const ZSamlRequestState = ZSamlSavedState.omit({ relayState: true });
type TSamlRequestState = ReturnType<typeof ZSamlRequestState.parse>;

export const samlConnectionAdapter: TConnectionAdapterModule<"saml", TSamlUpstreamConfig, TSamlRequestState> =
  {
    id: "saml",
    settings: {
      input: ZSamlSettingsInput,
      full: ZSamlConnectionConfig,
      secretFields: SAML_SECRET_FIELDS,
      secretBelongsTo: { spEncryptionPrivateKey: "spEncryptionCertificate" },
      normaliseInput: flatSamlKeyPairs,
      resolveInput: withFetchedSamlMetadata,
    },
    refuses: (provider) =>
      provider.adapters.production === "wallet"
        ? `provider "${provider.id}" is a wallet provider; saml connects providers whose sign-in is a redirect`
        : null,
    connectionJson: (row) => {
      const settings = row.settings as { spEntityId?: unknown };
      return {
        serviceProvider: {
          entityId: typeof settings.spEntityId === "string" ? settings.spEntityId : "",
          ...samlServiceProviderUrls(row.environment, row.providerId),
        },
      };
    },
    check: (providerId, settings) => checkSamlConnection(providerId, settings),
    signIn: {
      answer: "form_post",
      answerName: "SAML response",
      stateSchema: ZSamlRequestState,
      async begin(settings, { env, providerId, bind }) {
        const { acsUrl } = samlServiceProviderUrls(env, providerId);
        const state: TSamlRequestState = {
          requestId: newSamlRequestId(),
          acsUrl,
          issuedAt: new Date().toISOString(),
        };
        const relayState = bind(state);
        const { url } = await beginSamlAuthentication(settings, {
          acsUrl,
          relayState,
          requestId: state.requestId,
        });
        return { url, state, binding: relayState };
      },
      bindingOf: (answer) => (answer.channel === "form_post" ? answer.form.RelayState : undefined),
      async complete(settings, state, answer) {
        const form = answer.channel === "form_post" ? answer.form : {};
        const relayState = form.RelayState ?? "";
        const answered = await completeSamlAuthentication(
          settings,
          { ...state, relayState },
          { SAMLResponse: form.SAMLResponse, RelayState: relayState },
          postgresSamlReplayCache(kysely()),
        );
        if (answered.kind === "success") return { outcome: answered };
        return {
          outcome: { kind: "failure", reason: SAML_REFUSED_REASON },
          refusal: { reason: answered.reason, message: answered.message },
        };
      },
    },
  };
