/**
 * The userinfo `provenance` object (spec: Verification userinfo): where the identity came from
 * and what the source itself said. Rules:
 * - one credential per verification, typed with the provider id used at initiation, with the
 *   catalog's issuer (id, authority name, government or not);
 * - `claims` are the source's raw answer with its native keys (for match providers the verdict
 *   verbatim), never the OIDC-normalized user object;
 * - `evidence.names` lists exactly the keys of `evidence.token`, joined by ";";
 * - the channel is the catalog's (centralized_idp/internet, chip/nfc, wallet/internet); a wallet
 *   presentation through the browser's Digital Credentials API reports transport `dc_api`;
 * - `_metadata.status` appears only when the caller gives one (match flows).
 */
import type { TFlowType, TProviderDefinition } from "../catalog";
import type { TSourceIdentity } from "./types";

export type TProvenanceChannel = {
  type: string;
  transport: string;
};

export type TEvidence = {
  token: Record<string, string>;
  names: string;
};

// type aliases (not interfaces) so a provenance is assignable to Record<string, unknown>
export type TProvenance = {
  presentation: {
    channel: TProvenanceChannel;
    credentials: {
      type: string;
      issuer: { id: string; authority_name: string; is_government: boolean };
      claims: Record<string, unknown>;
      evidence: TEvidence;
    }[];
  };
  _metadata: { verification_id: string; verified_at: string; status?: string };
};

/** The spec's evidence object: the provider's token and the ";"-joined list of its keys. */
export function buildEvidence(token: Record<string, string>): TEvidence {
  return { token: { ...token }, names: Object.keys(token).join(";") };
}

export function provenanceChannel(provider: TProviderDefinition, flowType?: TFlowType): TProvenanceChannel {
  if (provider.channel.type === "wallet" && flowType === "dc") return { type: "wallet", transport: "dc_api" };
  return { type: provider.channel.type, transport: provider.channel.transport };
}

export function buildProvenance(
  provider: TProviderDefinition,
  identity: TSourceIdentity,
  meta: { verificationId: string; verifiedAt: Date; status?: string; flowType?: TFlowType },
): TProvenance {
  return {
    presentation: {
      channel: provenanceChannel(provider, meta.flowType),
      credentials: [
        {
          type: provider.id,
          issuer: {
            id: provider.issuer.id,
            authority_name: provider.issuer.authorityName,
            is_government: provider.issuer.isGovernment,
          },
          claims: structuredClone(identity.rawClaims),
          evidence: buildEvidence(identity.evidence),
        },
      ],
    },
    _metadata: {
      verification_id: meta.verificationId,
      verified_at: meta.verifiedAt.toISOString(),
      ...(meta.status !== undefined ? { status: meta.status } : {}),
    },
  };
}
