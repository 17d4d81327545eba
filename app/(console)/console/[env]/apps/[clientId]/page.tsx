import type { Metadata } from "next";
import { AppOverview } from "@/components/apps/app-overview";

export const metadata: Metadata = { title: "App" };

export default async function AppPage({ params }: { params: Promise<{ clientId: string }> }) {
  const { clientId } = await params;
  return <AppOverview clientId={clientId} />;
}
