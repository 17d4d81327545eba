// Every tab of an app (Overview, Providers, Workflows, Webhooks, Domain, Production tests) in one frame.
import type { ReactNode } from "react";
import { AppFrame } from "@/components/apps/app-frame";

export default async function AppLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ clientId: string }>;
}) {
  const { clientId } = await params;
  return <AppFrame clientId={clientId}>{children}</AppFrame>;
}
