"use client";
/**
 * Step 1 of the Domain tab: the web and OIDC hosts. Obvious mistakes are shown on the field as
 * soon as it is left (host-checks.ts); the API decides the rest (same base domain, hosts in use,
 * public suffixes) and its verdict lands on the field it names.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";
import { FormError, Input } from "@/components/ui/field";
import { apiFieldMessage, hostPairProblems, type THostProblems } from "./host-checks";
import { domainKeys, domainPath, type TCustomDomain } from "./queries";

type TField = keyof THostProblems;

export function HostsForm({ clientId, onConfigured }: { clientId: string; onConfigured: () => void }) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ webDomain: "", oidcDomain: "" });
  const [touched, setTouched] = useState({ webDomain: false, oidcDomain: false });
  // the values the API judged: its field errors are shown while the field still holds them
  const [sent, setSent] = useState<typeof values | null>(null);
  const mutation = useMutation({
    mutationFn: (body: typeof values) =>
      api<TCustomDomain>(env, domainPath(clientId), { method: "PUT", body }),
    onSuccess: (domain) => {
      onConfigured();
      queryClient.setQueryData(domainKeys.detail(env, clientId), domain);
    },
  });
  const apiError = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const problems = hostPairProblems(values.webDomain, values.oidcDomain);

  const fieldError = (field: TField): string | undefined => {
    if (touched[field] && problems[field]) return problems[field];
    if (sent && sent[field] === values[field]) return apiFieldMessage(apiError?.fieldError(field));
    return undefined;
  };
  const formError =
    mutation.error && !apiError?.fieldError("webDomain") && !apiError?.fieldError("oidcDomain")
      ? errorMessage(mutation.error)
      : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched({ webDomain: true, oidcDomain: true });
    if (problems.webDomain || problems.oidcDomain) {
      document.getElementById(problems.webDomain ? "domain-web-host" : "domain-oidc-host")?.focus();
      return;
    }
    const body = { webDomain: values.webDomain.trim(), oidcDomain: values.oidcDomain.trim() };
    setSent(values);
    mutation.mutate(body);
  };

  const field = (name: TField) => ({
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: values[name] !== "" || t[name] })),
    error: fieldError(name),
    required: true,
    autoComplete: "off",
    autoCapitalize: "none",
    spellCheck: false,
    inputMode: "url" as const,
    maxLength: 253,
  });

  return (
    <form className="space-y-4" noValidate onSubmit={submit}>
      <div className="grid gap-4 md:grid-cols-2">
        <Input
          id="domain-web-host"
          label="Web host"
          placeholder="verify.example.com"
          description="Where end-users see the hosted verification pages."
          {...field("webDomain")}
        />
        <Input
          id="domain-oidc-host"
          label="OIDC host"
          placeholder="auth.example.com"
          description="Your OpenID Connect issuer. Another host under the same domain as the web host."
          {...field("oidcDomain")}
        />
      </div>
      <p className="text-sm text-gray-700">
        Host names only (no https://, path or port), each a subdomain you control: the next step lists the DNS
        records to create for them.
      </p>
      <FormError message={formError} />
      <Button type="submit" pending={mutation.isPending}>
        Save
      </Button>
    </form>
  );
}
