import type { Metadata } from "next";
import { Suspense } from "react";
import { ConnectionList } from "@/components/operator/connections/connection-list";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Connections" };

export default function ConnectionsPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Connections</h1>
        <p className="text-sm text-gray-700">
          How each provider of the catalog reaches its real identity provider in this environment. A
          production provider is offered to integrators only while its connection works.
        </p>
      </div>
      <Suspense fallback={<Loading label="Loading connections" />}>
        <ConnectionList />
      </Suspense>
    </div>
  );
}
