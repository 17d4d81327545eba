/**
 * The provider catalog: one entry per eID method. Each entry states what the spec's catalog
 * fields need (countries, flow types, scopes, LoA, type, verification model). The full catalog
 * with activation requirements, test identities and adapters grows here.
 */
export type TFlowType = "qr" | "redirect" | "push" | "dc";

export interface TProviderDefinition {
  id: string;
  name: string;
  description: string;
  logoUrl: string;
  countries: string[];
  flowTypes: TFlowType[];
  scopes: string[];
  loa: number[];
  defaultLoa: number;
  /** 1 centralized IdP, 2 chip-based, 3 decentralized wallet */
  type: 1 | 2 | 3;
  verificationModel: "disclosure" | "match";
  matchGranularity?: "per_field" | "aggregate";
}

export const PROVIDERS: readonly TProviderDefinition[] = [
  {
    id: "passport",
    name: "Passport (NFC)",
    description:
      "Reads the chip of an ICAO 9303 electronic passport with the phone's NFC reader and checks its passive and chip authentication.",
    logoUrl: "/providers/passport.svg",
    countries: ["*"],
    flowTypes: ["qr"],
    scopes: ["openid", "profile", "nationality", "document"],
    loa: [2, 3],
    defaultLoa: 2,
    type: 2,
    verificationModel: "disclosure",
  },
];

const byId = new Map(PROVIDERS.map((p) => [p.id, p]));

export function findProvider(id: string): TProviderDefinition | undefined {
  return byId.get(id);
}
