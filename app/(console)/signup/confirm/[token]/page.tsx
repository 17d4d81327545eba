// A sign-up confirmation link (signed out): the sign-up's password creates the workspace.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AuthFrame } from "@/components/console/auth-frame";
import { ConfirmSignUp } from "@/components/console/signup-confirm";
import { signupEnabled } from "@/lib/console/signup";

export const dynamic = "force-dynamic";
// the link is a credential: never pass it on as a referrer
export const metadata: Metadata = { title: "Confirm your sign-up", referrer: "no-referrer" };

export default async function ConfirmSignUpPage({ params }: { params: Promise<{ token: string }> }) {
  if (!signupEnabled()) notFound();
  const { token } = await params;
  return (
    <AuthFrame title="Confirm your sign-up">
      <ConfirmSignUp token={token} />
    </AuthFrame>
  );
}
