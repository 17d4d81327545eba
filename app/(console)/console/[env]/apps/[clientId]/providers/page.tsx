import type { Metadata } from "next";
import { ProvidersTab } from "@/components/providers/providers-tab";

export const metadata: Metadata = { title: "Providers" };

export default function AppProvidersPage() {
  return <ProvidersTab />;
}
