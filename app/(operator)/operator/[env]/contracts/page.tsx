import type { Metadata } from "next";
import { ContractForm } from "@/components/operator/contract-form";
import { PROVIDERS } from "@/lib/providers/catalog";

export const metadata: Metadata = { title: "Contracts" };

export default function ContractsPage() {
  const providers = PROVIDERS.filter((p) => p.activation.kind === "contract").map((p) => ({
    id: p.id,
    name: p.name,
  }));
  return <ContractForm providers={providers} />;
}
