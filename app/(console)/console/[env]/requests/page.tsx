import type { Metadata } from "next";
import { Suspense } from "react";
import { RequestLog } from "@/components/request-log/request-log";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "API requests" };

export default function RequestsPage() {
  return (
    <Suspense fallback={<Loading label="Loading API requests" />}>
      <RequestLog />
    </Suspense>
  );
}
