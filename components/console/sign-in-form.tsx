"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Input } from "@/components/ui/field";
import { signInWithPassword } from "./auth-client";
import { safeCallback } from "./landing";

export function SignInForm({ callbackUrl, notice }: { callbackUrl?: string; notice?: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        setPending(true);
        setError(null);
        const result = await signInWithPassword(email, password);
        if (result.ok) {
          // without a callback the sign-in page sends the new session to its home (homeFor)
          window.location.assign(safeCallback(callbackUrl, "/"));
          return;
        }
        setPending(false);
        setError(result.message);
      }}
    >
      {notice ? (
        <p
          role="status"
          className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900"
        >
          {notice}
        </p>
      ) : null}
      <Input
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Input
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <FormError message={error} />
      <Button type="submit" size="lg" className="w-full" pending={pending}>
        Sign in
      </Button>
    </form>
  );
}
