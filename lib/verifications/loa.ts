/** Levels of assurance (docs/design.md §5): 0 unspecified, 1 low, 2 substantial, 3 high. */
import { config } from "../config";

export const LOA_LABELS = ["unspecified", "low", "substantial", "high"] as const;

export function loaLabel(loa: number): string {
  return LOA_LABELS[loa] ?? "unspecified";
}

/** `urn:{namespace}:loa:{n}`; the namespace is configurable (IDV_ACR_NAMESPACE, default "idv"). */
export function acrFor(loa: number): string {
  return `urn:${config().acrNamespace}:loa:${loa}`;
}

/** The level of an acr value of our form, or undefined. */
export function loaFromAcr(acr: string): number | undefined {
  const ns = config().acrNamespace;
  const m = new RegExp(`^urn:${ns.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:loa:([0-3])$`).exec(acr);
  return m ? Number(m[1]) : undefined;
}
