/** Words for provider facts: countries by name, flow types, levels of assurance, statuses. */
import type { BadgeTone } from "@/components/ui/badge";
import type { TProviderEntry } from "./queries";

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export const FLOW_LABELS: Record<string, string> = {
  redirect: "Redirect",
  qr: "QR code",
  push: "Push to app",
  dc: "Digital credential",
};

export const LOA_LABELS: Record<number, string> = { 0: "unspecified", 1: "low", 2: "substantial", 3: "high" };

export const KIND_LABELS: Record<TProviderEntry["activationKind"], string> = {
  direct: "Activated at once",
  registration: "Registration, reviewed by us",
  contract: "Contract with the provider",
};

/** The status the integrator sees: "needs action" overrides an activated provider's status. */
export type TShownStatus = TProviderEntry["status"] | "need_action";

export function shownStatus(p: TProviderEntry): TShownStatus {
  return p.needAction ? "need_action" : p.status;
}

export const STATUS_LABELS: Record<TShownStatus, string> = {
  not_activated: "not activated",
  activation_requested: "requested",
  activation_processing: "in review",
  rejected: "rejected",
  activated: "activated",
  need_action: "needs action",
};

export const STATUS_TONES: Record<TShownStatus, BadgeTone> = {
  not_activated: "gray",
  activation_requested: "blue",
  activation_processing: "amber",
  rejected: "red",
  activated: "green",
  need_action: "red",
};

export function modelLabel(p: TProviderEntry): string {
  if (p.verificationModel === "disclosure") return "Disclosure";
  return p.matchGranularity === "aggregate" ? "Match · one verdict" : "Match · per field";
}

/** Whether the app can submit an activation for the provider now (the API decides in the end). */
export function canSubmit(p: TProviderEntry): boolean {
  return p.status === "not_activated" || p.status === "rejected";
}
