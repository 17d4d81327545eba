/**
 * What a hosted or simulator page and its root layout both need: the session's view and the
 * language the page is served in. The layout sets `<html lang>` from it, so both must agree:
 * - one database read per request, shared by the layout, the page and generateMetadata (React
 *   `cache` is per request);
 * - the served language is the session's locale, then Accept-Language, then English
 *   (lib/hosted/i18n pickLocale); a session the page does not show (unknown id, or a production
 *   session on the simulator) counts as none, so its not-found page speaks the browser's language
 *   and does not reveal the session's;
 * - on a custom domain only that app's sessions exist (lib/domains/served-app.ts): another app's
 *   session is not found, like an unknown id.
 */
import { headers } from "next/headers";
import { cache } from "react";
import { kysely } from "@/lib/db/client";
import { servesVerification } from "@/lib/domains/served-app";
import { pickLocale, type TLocale } from "@/lib/hosted/i18n";
import { loadHostedView, type THostedView } from "@/lib/hosted/view";

/** The session as the hosted page shows it, or null for an unknown or malformed id. */
export const loadVerifyView = cache(async (id: string): Promise<THostedView | null> => {
  if (!(await servesVerification(kysely(), await headers(), id))) return null;
  return loadHostedView(kysely(), id);
});

/** The session as the simulator shows it: sandbox sessions only, as if production ones did not exist. */
export const loadSimulatorView = cache(async (id: string): Promise<THostedView | null> => {
  const view = await loadVerifyView(id);
  return view?.environment === "sandbox" ? view : null;
});

/** The language a page about `view` (null: not found) is served in. */
export async function servedLocale(view: THostedView | null): Promise<TLocale> {
  return pickLocale(view?.locale, (await headers()).get("accept-language"));
}
