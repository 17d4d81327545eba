import type { Metadata } from "next";
import { Suspense } from "react";
import { ConnectionDetail } from "@/components/operator/connections/connection-detail";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Connection" };

export default async function ConnectionPage({ params }: { params: Promise<{ providerId: string }> }) {
  const { providerId } = await params;
  return (
    <Suspense fallback={<Loading label="Loading the connection" />}>
      <ConnectionDetail key={providerId} providerId={providerId} />
    </Suspense>
  );
}
