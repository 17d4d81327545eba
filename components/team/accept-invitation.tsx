"use client";
/**
 * The invitation link's page (signed out): read the invitation, then join with a new account
 * (name and password) or the existing account's password, sign in and open the console. The
 * token travels in request bodies only, and stays in memory.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api, ApiRequestError } from "@/components/console/api";
import { signInWithPassword } from "@/components/console/auth-client";
import { AuthFrame } from "@/components/console/auth-frame";
import { formatDateTime } from "@/components/verifications/format";
import { Button } from "@/components/ui/button";
import { Form, Input } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { TeamError, teamMessage } from "./messages";
import { invitationKeys, type TInvitationLookup, type TJoined } from "./queries";
import { ROLE_DESCRIPTIONS, withArticle } from "./roles";

const LANDING = "/console/sandbox/dashboard";

function SignInLink({ prompt = "Already a member?" }: { prompt?: string }) {
  return (
    <p className="text-center text-sm text-gray-700">
      {prompt}{" "}
      <Link href="/" className="font-semibold text-blue-800 underline">
        Sign in
      </Link>
    </p>
  );
}

function AcceptForm({ token, invitation }: { token: string; invitation: TInvitationLookup }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const mutation = useMutation({
    mutationFn: async () => {
      const joined = await api<TJoined>("sandbox", "/v1/invitations/accept", {
        method: "POST",
        body: {
          token,
          password,
          ...(!invitation.existingUser && name.trim() ? { name: name.trim() } : {}),
        },
      });
      // open the console on the workspace just joined (an existing account may have others)
      document.cookie = `idv.workspace=${encodeURIComponent(joined.workspaceId)}; path=/; samesite=lax; max-age=31536000`;
      const signedIn = await signInWithPassword(joined.email, password);
      return signedIn.ok;
    },
    // joined either way; when signing in failed (e.g. rate limited) the sign-in page says so
    onSuccess: (signedIn) =>
      window.location.assign(signedIn ? LANDING : `/?joined=1&callbackUrl=${encodeURIComponent(LANDING)}`),
  });
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const nameError = error?.fieldError("name");
  const passwordError = error?.fieldError("password");
  const invalid = error?.status === 410;
  return (
    <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
      <Input
        label="Email"
        type="email"
        autoComplete="username"
        value={invitation.email}
        readOnly
        className="bg-gray-100"
        description="The invitation is for this address; you sign in with it."
      />
      {invitation.existingUser ? null : (
        <Input
          label="Your name"
          autoComplete="name"
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={nameError}
          description="Optional: shown to your team."
        />
      )}
      <Input
        label="Password"
        type="password"
        autoComplete={invitation.existingUser ? "current-password" : "new-password"}
        required
        minLength={invitation.existingUser ? undefined : 8}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={passwordError}
        description={
          invitation.existingUser
            ? "You already have an account with this email: enter its existing password."
            : "Choose a password of at least 8 characters."
        }
      />
      <TeamError
        message={mutation.error && !nameError && !passwordError ? teamMessage(mutation.error) : null}
      />
      <Button type="submit" size="lg" className="w-full" pending={mutation.isPending || mutation.isSuccess}>
        Join workspace
      </Button>
      {invalid ? <SignInLink prompt="Joined already?" /> : null}
    </Form>
  );
}

export function AcceptInvitation({ token }: { token: string }) {
  const lookup = useQuery({
    queryKey: invitationKeys.lookup(token),
    queryFn: ({ signal }) =>
      api<TInvitationLookup>("sandbox", "/v1/invitations/lookup", {
        method: "POST",
        body: { token },
        signal,
      }),
    // a POST: read once; a used or expired link counts against the address's limit
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

  if (lookup.isPending) {
    return (
      <AuthFrame title="Join a workspace">
        <Loading label="Checking the invitation" />
      </AuthFrame>
    );
  }
  if (lookup.isError) {
    const invalid = lookup.error instanceof ApiRequestError && lookup.error.status === 410;
    return (
      <AuthFrame title={invalid ? "This invitation cannot be used" : "Join a workspace"}>
        <TeamError message={teamMessage(lookup.error)} />
        {invalid ? (
          <p className="text-sm text-gray-700">
            Invitation links work once and for 7 days. Ask the person who invited you for a new link, or sign
            in if you have joined already.
          </p>
        ) : (
          <Button variant="secondary" className="w-full" onClick={() => lookup.refetch()}>
            Try again
          </Button>
        )}
        <SignInLink prompt={invalid ? "Joined already?" : "Already a member?"} />
      </AuthFrame>
    );
  }
  const invitation = lookup.data;
  return (
    <AuthFrame title={`Join ${invitation.workspaceName} as ${withArticle(invitation.role)}`}>
      <div className="space-y-1 text-sm text-gray-700">
        <p>{ROLE_DESCRIPTIONS[invitation.role]}</p>
        <p>
          This invitation expires on{" "}
          <time dateTime={invitation.expiresAt}>{formatDateTime(invitation.expiresAt)}</time>.
        </p>
      </div>
      <AcceptForm token={token} invitation={invitation} />
    </AuthFrame>
  );
}
