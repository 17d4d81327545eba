/**
 * Root layout of the hosted verification page (and its not-found page). It sits at the [id]
 * segment because a root layout gets no searchParams but does get its own params: with the id it
 * loads the same view as the page (one cached query) and serves `<html lang>` in the page's
 * language. The route handlers below (start, cancel, push, qr, status, wallet) have no layout.
 */
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { loadVerifyView, servedLocale } from "@/app/(hosted)/_lib/page-data";
import { HostedDocument } from "@/components/verify/hosted-document";
import "@/app/globals.css";

export const metadata: Metadata = { robots: { index: false } };

export default async function HostedRootLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ id: string }>;
}) {
  const { id } = await params;
  const locale = await servedLocale(await loadVerifyView(id));
  return <HostedDocument lang={locale}>{children}</HostedDocument>;
}
