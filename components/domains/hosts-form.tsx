"use client";
/**
 * Step 1 of the Domain tab: the web and OIDC hosts. Obvious mistakes are shown on the field as
 * soon as it is left (host-checks.ts); the API decides the rest (same base domain, hosts in use,
 * public suffixes) and its verdict lands on the field it names, worded by
 * components/ui/field-errors.ts, until that field changes.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";
import { FormError, Input } from "@/components/ui/field";
import { useFieldErrors, type TFieldSpec } from "@/components/ui/field-errors";
import { hostPairProblems, type THostProblems } from "./host-checks";
import { domainKeys, domainPath, type TCustomDomain } from "./queries";

type TField = keyof THostProblems;

const NAMES = { webDomain: "the web host", oidcDomain: "the OIDC host" };
const SPECS: Record<TField, TFieldSpec> = {
  webDomain: { label: "Web host", names: NAMES },
  oidcDomain: { label: "OIDC host", names: NAMES },
};

export function HostsForm({ clientId, onConfigured }: { clientId: string; onConfigured: () => void }) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ webDomain: "", oidcDomain: "" });
  const [touched, setTouched] = useState({ webDomain: false, oidcDomain: false });
  const mutation = useMutation({
    mutationFn: (body: typeof values) =>
      api<TCustomDomain>(env, domainPath(clientId), { method: "PUT", body }),
    onSuccess: (domain) => {
      onConfigured();
      queryClient.setQueryData(domainKeys.detail(env, clientId), domain);
    },
  });
  const apiErrors = useFieldErrors(mutation.error);
  const problems = hostPairProblems(values.webDomain, values.oidcDomain);

  const fieldError = (field: TField): string | undefined => {
    if (touched[field] && problems[field]) return problems[field];
    return apiErrors.message(field, SPECS[field]);
  };
  const formError =
    mutation.error && !apiErrors.names("webDomain", "oidcDomain") ? errorMessage(mutation.error) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched({ webDomain: true, oidcDomain: true });
    if (problems.webDomain || problems.oidcDomain) {
      document.getElementById(problems.webDomain ? "domain-web-host" : "domain-oidc-host")?.focus();
      return;
    }
    const body = { webDomain: values.webDomain.trim(), oidcDomain: values.oidcDomain.trim() };
    mutation.mutate(body);
  };

  const field = (name: TField) => ({
    value: values[name],
    onChange: (e: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      apiErrors.changed(name);
    },
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
