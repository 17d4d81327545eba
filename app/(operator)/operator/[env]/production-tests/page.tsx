import type { Metadata } from "next";
import { Suspense } from "react";
import { RequestList } from "@/components/operator/production-tests/request-list";
import { Loading } from "@/components/ui/spinner";
import { PROVIDERS } from "@/lib/providers/catalog";

export const metadata: Metadata = { title: "Production tests" };

export default function ProductionTestsPage() {
  const providerNames = Object.fromEntries(PROVIDERS.map((p) => [p.id, p.name]));
  return (
    <Suspense fallback={<Loading label="Loading production tests" />}>
      <RequestList providerNames={providerNames} />
    </Suspense>
  );
}
