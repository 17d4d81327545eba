// A password-reset link (signed out): choose a new password.
import type { Metadata } from "next";
import { ResetPassword } from "@/components/console/password-reset";

export const dynamic = "force-dynamic";
// the link is a credential: never pass it on as a referrer
export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <ResetPassword token={token} />;
}
