"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Form, FormError, Input } from "@/components/ui/field";
import { api, ApiRequestError, errorMessage } from "./api";
import { signInWithPassword } from "./auth-client";

type TSignUpAnswer = { status: "confirmation_sent" } | { workspaceId: string; userId: string; email: string };

/**
 * Sign-up: with mail the service answers "confirmation sent" for any address (the emailed link
 * finishes it, components/console/signup-confirm.tsx), and the form says to check the inbox;
 * without mail the workspace exists at once and the form signs in.
 */
export function SignUpForm() {
  const [form, setForm] = useState({ workspaceName: "", name: "", email: "", password: "" });
  const mutation = useMutation({
    mutationFn: async (): Promise<"check_email" | "signed_in"> => {
      const answer = await api<TSignUpAnswer>("sandbox", "/v1/signup", {
        method: "POST",
        body: {
          workspaceName: form.workspaceName,
          name: form.name || undefined,
          email: form.email,
          password: form.password,
        },
      });
      if ("status" in answer) return "check_email";
      const signedIn = await signInWithPassword(form.email, form.password);
      if (!signedIn.ok) throw new Error(signedIn.message);
      return "signed_in";
    },
    onSuccess: (outcome) => {
      // A full page load, so the server layout renders with the new session cookie.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      if (outcome === "signed_in") window.location.assign("/console/sandbox/dashboard");
    },
  });
  if (mutation.data === "check_email") {
    return (
      <div className="space-y-3">
        <h2 className="text-lg font-semibold text-gray-900">Check your email</h2>
        <p
          role="status"
          className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900"
        >
          We sent a message to <span className="font-semibold break-all">{form.email}</span>. Open its link
          within 24 hours to create your workspace.
        </p>
        <p className="text-sm text-gray-700">
          No mail after a few minutes? Check your spam folder. If the address already has an account, the
          message tells you how to sign in instead.
        </p>
      </div>
    );
  }
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const fieldErrors = ["workspaceName", "name", "email", "password"].some((f) => error?.fieldError(f));
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  return (
    <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
      <Input
        label="Workspace name"
        required
        maxLength={100}
        value={form.workspaceName}
        onChange={set("workspaceName")}
        error={error?.fieldError("workspaceName")}
        description="Usually your company's name."
      />
      <Input
        label="Your name"
        autoComplete="name"
        maxLength={100}
        value={form.name}
        onChange={set("name")}
        error={error?.fieldError("name")}
      />
      <Input
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={form.email}
        onChange={set("email")}
        error={error?.fieldError("email")}
      />
      <Input
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        value={form.password}
        onChange={set("password")}
        error={error?.fieldError("password")}
        description="At least 8 characters."
      />
      <FormError message={mutation.error && !fieldErrors ? errorMessage(mutation.error) : null} />
      <Button type="submit" size="lg" className="w-full" pending={mutation.isPending}>
        Create workspace
      </Button>
    </Form>
  );
}
