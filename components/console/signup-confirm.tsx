"use client";
/**
 * The sign-up confirmation link's page (signed out): the password chosen at sign-up creates the
 * workspace and its owner, then signs in and opens the console. The token travels in request
 * bodies only.
 */
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Form, FormError, Input } from "@/components/ui/field";
import { api, ApiRequestError, formErrorMessage } from "./api";
import { signInWithPassword } from "./auth-client";

const LANDING = "/console/sandbox/dashboard";

type TJoined = { workspaceId: string; userId: string; email: string };

export function ConfirmSignUp({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const mutation = useMutation({
    mutationFn: async () => {
      const joined = await api<TJoined>("sandbox", "/v1/signup/confirm", {
        method: "POST",
        body: { token, password },
      });
      const signedIn = await signInWithPassword(joined.email, password);
      return signedIn.ok;
    },
    // created either way; when signing in failed (e.g. rate limited) the sign-in page says so
    onSuccess: (signedIn) =>
      window.location.assign(signedIn ? LANDING : `/?callbackUrl=${encodeURIComponent(LANDING)}`),
  });
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const invalid = error?.status === 410;
  return (
    <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
      <p className="text-sm text-gray-700">
        Your email is confirmed once you enter the password you chose when signing up.
      </p>
      <Input
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={1024}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error?.fieldError("password")}
      />
      <FormError message={formErrorMessage(mutation.error, "password")} />
      <Button type="submit" size="lg" className="w-full" pending={mutation.isPending || mutation.isSuccess}>
        Create workspace
      </Button>
      {invalid ? (
        <p className="text-center text-sm text-gray-700">
          <Link href="/signup" className="font-semibold text-blue-800 underline">
            Sign up again
          </Link>{" "}
          or{" "}
          <Link href="/" className="font-semibold text-blue-800 underline">
            sign in
          </Link>
        </p>
      ) : null}
    </Form>
  );
}
