"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Form, FormError, Input } from "@/components/ui/field";
import { api, ApiRequestError, errorMessage } from "./api";
import { signInWithPassword } from "./auth-client";

export function SignUpForm() {
  const [form, setForm] = useState({ workspaceName: "", name: "", email: "", password: "" });
  const mutation = useMutation({
    mutationFn: async () => {
      await api("sandbox", "/v1/signup", {
        method: "POST",
        body: {
          workspaceName: form.workspaceName,
          name: form.name || undefined,
          email: form.email,
          password: form.password,
        },
      });
      const signedIn = await signInWithPassword(form.email, form.password);
      if (!signedIn.ok) throw new Error(signedIn.message);
    },
    // A full page load, so the server layout renders with the new session cookie.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    onSuccess: () => window.location.assign("/console/sandbox/dashboard"),
  });
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
