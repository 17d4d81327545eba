import type { Metadata } from "next";
import { AppOverview } from "@/components/apps/app-overview";

export const metadata: Metadata = { title: "Overview" };

export default function AppPage() {
  return <AppOverview />;
}
