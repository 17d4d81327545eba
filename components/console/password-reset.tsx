"use client";
/**
 * Password reset (signed out): the "forgot password" form, which always answers the same, and the
 * emailed link's page, which reads the link, sets the new password and sends the person to sign
 * in (every session ended). The token travels in request bodies only.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Form, FormError, Input } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { api, ApiRequestError, errorMessage, formErrorMessage } from "./api";
import { AuthFrame } from "./auth-frame";

export function BackToSignIn({ prompt = "Remembered it?" }: { prompt?: string }) {
  return (
    <p className="text-center text-sm text-gray-700">
      {prompt}{" "}
      <Link href="/" className="font-semibold text-blue-800 underline">
        Sign in
      </Link>
    </p>
  );
}

export function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const mutation = useMutation({
    mutationFn: () =>
      api<{ status: string }>("sandbox", "/v1/password-reset", { method: "POST", body: { email } }),
  });
  if (mutation.isSuccess) {
    return (
      <div className="space-y-3">
        <p
          role="status"
          className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900"
        >
          If an account exists for <span className="font-semibold break-all">{email}</span>, we sent it a link
          to choose a new password. The link works once, for 30 minutes.
        </p>
        <p className="text-sm text-gray-700">
          No mail? Check your spam folder, or ask again in a few minutes.
        </p>
      </div>
    );
  }
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  return (
    <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
      <p className="text-sm text-gray-700">
        Enter the email you sign in with. We send a link to choose a new password.
      </p>
      <Input
        label="Email"
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={error?.fieldError("email")}
      />
      <FormError message={formErrorMessage(mutation.error, "email")} />
      <Button type="submit" size="lg" className="w-full" pending={mutation.isPending}>
        Send reset link
      </Button>
    </Form>
  );
}

function NewPasswordForm({ token, email }: { token: string; email: string }) {
  const [password, setPassword] = useState("");
  const mutation = useMutation({
    mutationFn: () =>
      api<{ reset: true; email: string }>("sandbox", "/v1/password-reset/complete", {
        method: "POST",
        body: { token, newPassword: password },
      }),
    // every session ended: sign in again with the new password
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    onSuccess: () => window.location.assign("/?passwordReset=1"),
  });
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  return (
    <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
      <Input
        label="Email"
        type="email"
        autoComplete="username"
        value={email}
        readOnly
        className="bg-gray-100"
      />
      <Input
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={1024}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error?.fieldError("newPassword")}
        description="At least 8 characters. Saving it signs you out everywhere."
      />
      <FormError message={formErrorMessage(mutation.error, "newPassword")} />
      <Button type="submit" size="lg" className="w-full" pending={mutation.isPending || mutation.isSuccess}>
        Set new password
      </Button>
    </Form>
  );
}

export function ResetPassword({ token }: { token: string }) {
  const lookup = useQuery({
    queryKey: ["password-reset", "lookup", token],
    queryFn: ({ signal }) =>
      api<{ email: string; expiresAt: string }>("sandbox", "/v1/password-reset/lookup", {
        method: "POST",
        body: { token },
        signal,
      }),
    // a POST: read once; a bad link counts against the address's limit
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
  if (lookup.isPending) {
    return (
      <AuthFrame title="Choose a new password">
        <Loading label="Checking the link" />
      </AuthFrame>
    );
  }
  if (lookup.isError) {
    const invalid = lookup.error instanceof ApiRequestError && lookup.error.status === 410;
    return (
      <AuthFrame title={invalid ? "This link cannot be used" : "Choose a new password"}>
        <FormError message={errorMessage(lookup.error)} />
        {invalid ? (
          <p className="text-sm text-gray-700">
            Password-reset links work once and for 30 minutes.{" "}
            <Link href="/forgot-password" className="font-semibold text-blue-800 underline">
              Ask for a new link
            </Link>
            .
          </p>
        ) : (
          <Button variant="secondary" className="w-full" onClick={() => lookup.refetch()}>
            Try again
          </Button>
        )}
        <BackToSignIn prompt="Know your password?" />
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Choose a new password">
      <NewPasswordForm token={token} email={lookup.data.email} />
      <BackToSignIn />
    </AuthFrame>
  );
}
