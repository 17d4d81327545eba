import type { Metadata } from "next";
import { Suspense } from "react";
import { DomainList } from "@/components/operator/custom-domains/domain-list";
import { TlsCheck } from "@/components/operator/custom-domains/tls-check";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Custom domains" };

export default function CustomDomainsPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Custom domains</h1>
        <p className="text-sm text-gray-700">
          Every custom domain of this environment with its state and its last DNS check, and the TLS
          allow-list answer for any host.
        </p>
      </div>
      <TlsCheck />
      <Suspense fallback={<Loading label="Loading custom domains" />}>
        <DomainList />
      </Suspense>
    </div>
  );
}
