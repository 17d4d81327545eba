import type { Metadata } from "next";
import { DomainTab } from "@/components/domains/domain-tab";

export const metadata: Metadata = { title: "Domain" };

export default function AppDomainPage() {
  return <DomainTab />;
}
