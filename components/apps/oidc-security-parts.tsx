"use client";
/**
 * The pieces of the OpenID Connect security form (oidc-security.tsx): the choices with their
 * explanations (what each means for the integrator's client, what FAPI 2.0 enforces, as
 * lib/oidc/profile.ts defines it), radio cards, fieldsets with their error, and the API's field
 * errors in words naming the part (`jwks.keys[1].d` → "Key 2, member “d”").
 */
import { Lock } from "lucide-react";
import { useId, type ReactNode } from "react";
import type { ApiRequestError } from "@/components/console/api";
import { cn } from "@/components/ui/cn";
import type { TOidcProfile, TTokenEndpointAuthMethod } from "@/lib/oidc/profile";

export const PROFILES: { value: TOidcProfile; name: string; description: string }[] = [
  {
    value: "default",
    name: "Standard",
    description: "OpenID Connect with the choices below. Works with any certified client library.",
  },
  {
    value: "fapi2",
    name: "FAPI 2.0 Security Profile",
    description:
      "For banks, insurers and public services: every protection below is on and cannot be turned off.",
  },
];

export const METHODS: { value: TTokenEndpointAuthMethod; name: string; description: string }[] = [
  {
    value: "client_secret_basic",
    name: "Client secret (HTTP Basic)",
    description: "client_secret_basic: the client ID and secret in the Authorization header.",
  },
  {
    value: "client_secret_post",
    name: "Client secret (form fields)",
    description: "client_secret_post: client_id and client_secret in the token request's body.",
  },
  {
    value: "private_key_jwt",
    name: "Private key JWT",
    description:
      "private_key_jwt: no shared secret; your server signs a short-lived JWT with its private key, checked with the public keys below.",
  },
];

/** What FAPI 2.0 enforces (lib/oidc/profile.ts) and what the client must do about each. */
export const FAPI2_RULES: ReactNode[] = [
  <>
    <strong>Pushed authorization requests only:</strong> your server POSTs the sign-in parameters to the PAR
    endpoint and sends the user to <code>/auth</code> with the <code>request_uri</code> it gets back.
  </>,
  <>
    <strong>PKCE with S256</strong> on every sign-in request.
  </>,
  <>
    <strong>private_key_jwt</strong> client authentication, the assertion&apos;s <code>aud</code> being the
    issuer.
  </>,
  <>
    <strong>DPoP-bound access tokens:</strong> every token and userinfo request carries a fresh DPoP proof.
  </>,
  <>
    <strong>Authorization codes valid for 60 seconds</strong> at most: redeem them at once.
  </>,
  <>
    <strong>ES256, PS256 or EdDSA</strong> for client assertions, request objects and DPoP proofs (RS256 and{" "}
    <code>none</code> are refused).
  </>,
];

/** "Key 2, member “d”: …" for `jwks.keys[1].d`; the message alone for the field itself. */
export function describeFieldError(field: string, path: string, message: string): string {
  if (path === field) return message;
  const rest = path.slice(field.length).replace(/^\./, "");
  const key = /^keys\[(\d+)\](?:\.(.+))?$/.exec(rest);
  if (key) {
    const where = `Key ${Number(key[1]) + 1}${key[2] ? `, member “${key[2]}”` : ""}`;
    return `${where}: ${message}`;
  }
  return `${rest}: ${message}`;
}

/** Every message of the API's error about `field` (or below it), in words naming the part. */
export function fieldMessages(error: ApiRequestError | undefined, field: string): string | undefined {
  if (!error) return undefined;
  const messages = error.details
    .filter((d) => d.path === field || d.path.startsWith(`${field}.`) || d.path.startsWith(`${field}[`))
    .map((d) => describeFieldError(field, d.path, d.message));
  return messages.length ? messages.join(" ") : undefined;
}

/** A radio card: name and description read with the control, the whole card clickable. */
export function RadioCard({
  group,
  value,
  checked,
  disabled,
  onChange,
  name,
  description,
}: {
  group: string;
  value: string;
  checked: boolean;
  disabled?: boolean;
  onChange: () => void;
  name: string;
  description: ReactNode;
}) {
  const id = `${group}-${value}`;
  return (
    <label
      className={cn(
        "flex items-start gap-3 rounded-md border px-3 py-2",
        disabled ? "cursor-not-allowed bg-gray-50" : "cursor-pointer",
        checked ? "border-blue-700 bg-blue-50" : "border-gray-300 bg-white",
        !checked && !disabled ? "hover:bg-gray-50" : null,
      )}
    >
      <input
        type="radio"
        name={group}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={onChange}
        aria-labelledby={`${id}-name`}
        aria-describedby={`${id}-description`}
        className="mt-0.5 h-4 w-4 shrink-0 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      />
      <span className="min-w-0">
        <span id={`${id}-name`} className="block text-sm font-semibold text-gray-900">
          {name}
        </span>
        <span id={`${id}-description`} className="block text-sm break-words text-gray-700">
          {description}
        </span>
      </span>
    </label>
  );
}

/** A fieldset with a legend and the API's error below it, read with the group. */
export function Group({
  legend,
  description,
  error,
  children,
  className,
}: {
  legend: string;
  description?: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  const describedBy = [description ? `${id}-description` : "", error ? `${id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <fieldset className={cn("min-w-0 space-y-2", className)} aria-describedby={describedBy || undefined}>
      <legend className="text-sm font-semibold text-gray-900">{legend}</legend>
      {description ? (
        <p id={`${id}-description`} className="text-sm text-gray-700">
          {description}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export const LOCKED = (
  <span className="mt-1 flex items-center gap-1 text-gray-700">
    <Lock aria-hidden className="h-3.5 w-3.5 shrink-0" />
    Locked on by FAPI 2.0.
  </span>
);
