// "Forgot password?": the form that emails a reset link, or, when the service sends no mail, who
// to ask instead (no form that pretends).
import type { Metadata } from "next";
import { AuthFrame } from "@/components/console/auth-frame";
import { BackToSignIn, ForgotPasswordForm } from "@/components/console/password-reset";
import { mailConfigured } from "@/lib/mail/transport";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Reset your password" };

export default function ForgotPasswordPage() {
  if (!mailConfigured()) {
    return (
      <AuthFrame title="Reset your password">
        <p className="text-sm text-gray-800">
          This service sends no email, so it cannot reset passwords itself. Ask an owner of your workspace to
          remove you and invite you again (the invitation lets you choose a new password), or ask the
          service&apos;s operator.
        </p>
        <BackToSignIn />
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Reset your password">
      <ForgotPasswordForm />
      <BackToSignIn />
    </AuthFrame>
  );
}
