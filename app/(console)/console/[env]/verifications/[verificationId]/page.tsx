import type { Metadata } from "next";
import { providerOptions } from "@/components/verifications/providers";
import { VerificationDetail } from "@/components/verifications/verification-detail";

export const metadata: Metadata = { title: "Verification" };

export default async function VerificationPage({ params }: { params: Promise<{ verificationId: string }> }) {
  const { verificationId } = await params;
  return <VerificationDetail verificationId={verificationId} providers={providerOptions()} />;
}
