import type { Metadata } from "next";
import { Suspense } from "react";
import { ActivationQueue } from "@/components/operator/activation-queue";
import { Loading } from "@/components/ui/spinner";
import { PROVIDERS } from "@/lib/providers/catalog";

export const metadata: Metadata = { title: "Activations" };

export default function ActivationsPage() {
  // reviewed providers only: direct ones never open a ticket
  const providers = PROVIDERS.filter((p) => p.activation.kind !== "direct").map((p) => ({
    id: p.id,
    name: p.name,
  }));
  return (
    <Suspense fallback={<Loading label="Loading the queue" />}>
      <ActivationQueue providers={providers} />
    </Suspense>
  );
}
