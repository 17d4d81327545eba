import type { Metadata } from "next";
import { Suspense } from "react";
import { Loading } from "@/components/ui/spinner";
import { providerOptions } from "@/components/verifications/providers";
import { VerificationsList } from "@/components/verifications/verifications-list";

export const metadata: Metadata = { title: "Verifications" };

export default function VerificationsPage() {
  // the filters live in the URL query (useSearchParams): the list renders on the client
  return (
    <Suspense fallback={<Loading label="Loading verifications" />}>
      <VerificationsList providers={providerOptions()} />
    </Suspense>
  );
}
