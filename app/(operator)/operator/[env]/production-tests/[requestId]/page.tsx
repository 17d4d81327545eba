import type { Metadata } from "next";
import { Suspense } from "react";
import { RequestDetail } from "@/components/operator/production-tests/request-detail";
import { Loading } from "@/components/ui/spinner";
import { PROVIDERS } from "@/lib/providers/catalog";

export const metadata: Metadata = { title: "Production test request" };

export default async function ProductionTestRequestPage({
  params,
}: {
  params: Promise<{ requestId: string }>;
}) {
  const { requestId } = await params;
  const providerNames = Object.fromEntries(PROVIDERS.map((p) => [p.id, p.name]));
  return (
    <Suspense fallback={<Loading label="Loading the request" />}>
      <RequestDetail key={requestId} requestId={requestId} providerNames={providerNames} />
    </Suspense>
  );
}
