/**
 * Root layout of the sandbox provider simulator (and its not-found page): `<html lang>` in the
 * language the simulator page is served in, from the same cached view as the page. Production
 * sessions count as unknown here, so their not-found page does not reveal the session's locale.
 */
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { loadSimulatorView, servedLocale } from "@/app/(hosted)/_lib/page-data";
import { HostedDocument } from "@/components/verify/hosted-document";
import "@/app/globals.css";

export const metadata: Metadata = { robots: { index: false } };

export default async function SimulatorRootLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ id: string }>;
}) {
  const { id } = await params;
  const locale = await servedLocale(await loadSimulatorView(id));
  return <HostedDocument lang={locale}>{children}</HostedDocument>;
}
