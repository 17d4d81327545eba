// The console's front door: sign in (or go straight to the workspace when signed in).
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentSession } from "@/components/console/server-session";
import { homeFor, safeCallback } from "@/components/console/landing";
import { SignInForm } from "@/components/console/sign-in-form";
import { signupEnabled } from "@/lib/console/signup";
import { AuthFrame } from "@/components/console/auth-frame";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export default async function SignInPage({ searchParams }: Props) {
  const params = await searchParams;
  const callbackUrl = first(params.callbackUrl);
  const expired = first(params.expired) === "1";
  const session = await currentSession();
  if (session && !expired) redirect(safeCallback(callbackUrl, homeFor(session)));
  const notice = first(params.passwordChanged)
    ? "Your password was changed. Sign in with the new password."
    : first(params.passwordReset)
      ? "Your password was reset and every session signed out. Sign in with the new password."
      : first(params.signedOutEverywhere)
        ? "You signed out of all sessions, on every device. Sign in again."
        : first(params.joined)
          ? "You joined the workspace. Sign in to continue."
          : expired
            ? "Your session has ended. Sign in again."
            : undefined;
  return (
    <AuthFrame title="Sign in to the console">
      <SignInForm callbackUrl={callbackUrl} notice={notice} />
      <p className="text-center text-sm text-gray-700">
        <Link href="/forgot-password" className="font-semibold text-blue-800 underline">
          Forgot password?
        </Link>
      </p>
      {signupEnabled() ? (
        <p className="text-center text-sm text-gray-700">
          New here?{" "}
          <Link href="/signup" className="font-semibold text-blue-800 underline">
            Create a workspace
          </Link>
        </p>
      ) : null}
    </AuthFrame>
  );
}
