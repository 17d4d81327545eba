/**
 * What the hosted and simulator pages show of a session (a read model; nothing is written here).
 * Rules:
 * - branding: the verification node's `branding.useAppBranding` true (the default) shows the
 *   app's name and logo; otherwise the node's name and logo, falling back to the app's name
 *   when the node names nobody (a page must always say who asks);
 * - "what will be shared" is the node's requested claims in plain words, or in
 *   age_verification mode only "whether you are at least N" (the birthdate is read, not shared);
 * - provider logos are inlined as data URLs, because on an app's custom webDomain every path
 *   outside /verify is rewritten and /providers/… would not resolve;
 * - no personal data of the session is read: claims, match data and hand-off state stay sealed.
 */
import fs from "node:fs";
import path from "node:path";
import type { Db } from "../db/kysely";
import { findProvider, parseFlowType, type TFlowType } from "../providers/catalog";
import { isTerminal } from "../verifications/state-machine";
import { readHostedView } from "../verifications/store/hosted";
import { ZVerificationConfig } from "../workflows/schema";
import { storedNodes } from "../workflows/row";
import { pushIdentifierFor, type TPushIdentifier } from "./push";

export interface THostedView {
  id: string;
  environment: "sandbox" | "production";
  status: string;
  reason?: string;
  ended: boolean;
  flowType: TFlowType;
  expiresAt: string;
  locale: string | null;
  appName: string;
  brand: { name: string; logo?: string };
  provider: { id: string; name: string; logo?: string; countries: string[] };
  sharing: { mode: "age"; minimumAge: number } | { mode: "claims"; claims: string[] };
  push?: TPushIdentifier;
}

const logoCache = new Map<string, string | undefined>();

/** The provider's catalog logo (public/providers/<id>.svg) as a data URL. */
export function providerLogoDataUrl(providerId: string): string | undefined {
  if (logoCache.has(providerId)) return logoCache.get(providerId);
  let url: string | undefined;
  if (/^[a-z0-9_]+$/.test(providerId)) {
    try {
      const svg = fs.readFileSync(path.join(process.cwd(), "public", "providers", `${providerId}.svg`));
      url = `data:image/svg+xml;base64,${svg.toString("base64")}`;
    } catch {
      url = undefined;
    }
  }
  logoCache.set(providerId, url);
  return url;
}

export async function loadHostedView(db: Db, verificationId: string): Promise<THostedView | null> {
  if (!/^ver_[0-9A-Za-z]{1,64}$/.test(verificationId)) return null;
  // the session with its app's name and logo and its workflow's nodes: one statement
  const v = await readHostedView(db, verificationId);
  if (!v) return null;
  const app = v.appName === null ? null : { name: v.appName, logo: v.appLogo };
  const provider = findProvider(v.providerId);
  if (!app || !provider) return null;

  const node = (v.workflowNodes !== null ? storedNodes(v.workflowNodes) : []).find(
    (n) => n.id === v.verificationNodeId,
  );
  const parsed = ZVerificationConfig.safeParse(node?.config ?? {});
  const config = parsed.success ? parsed.data : undefined;

  const useApp = config?.branding?.useAppBranding !== false;
  const brand = useApp
    ? { name: app.name, ...(app.logo ? { logo: app.logo } : {}) }
    : {
        name: config?.branding?.name ?? app.name,
        ...(config?.branding?.logo ? { logo: config.branding.logo } : {}),
      };
  const sharing: THostedView["sharing"] =
    config?.mode === "age_verification" && config.minimumAge !== undefined
      ? { mode: "age", minimumAge: config.minimumAge }
      : { mode: "claims", claims: config?.claims ?? [] };
  const logo = providerLogoDataUrl(provider.id);
  const flowType = parseFlowType(v.flowType);

  return {
    id: v.id,
    environment: v.environment,
    status: v.status,
    ...(v.statusReason && v.status !== "completed" ? { reason: v.statusReason } : {}),
    ended: isTerminal(v.status),
    flowType,
    expiresAt: v.expiresAt.toISOString(),
    locale: v.locale,
    appName: app.name,
    brand,
    provider: {
      id: provider.id,
      name: provider.name,
      ...(logo ? { logo } : {}),
      countries: provider.countries,
    },
    sharing,
    ...(flowType === "push" ? { push: pushIdentifierFor(provider.id) } : {}),
  };
}
