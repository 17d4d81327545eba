import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AuthFrame } from "@/components/console/auth-frame";
import { SignUpForm } from "@/components/console/sign-up-form";
import { signupEnabled } from "@/lib/console/signup";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create a workspace" };

export default function SignUpPage() {
  if (!signupEnabled()) notFound();
  return (
    <AuthFrame title="Create a workspace">
      <SignUpForm />
      <p className="text-center text-sm text-gray-700">
        Already have an account?{" "}
        <Link href="/" className="font-semibold text-blue-800 underline">
          Sign in
        </Link>
      </p>
    </AuthFrame>
  );
}
