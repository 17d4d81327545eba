"use client";
/**
 * An app's OpenID Connect security settings on its Overview (issue 28): the profile (standard or
 * FAPI 2.0), the client authentication method with the client's public keys, the PAR, DPoP and
 * PKCE requirements, and what the integrator's client configures.
 * Rules:
 * - one form, one Save (disabled while nothing changed), one PATCH /v1/apps/{client_id} with the
 *   changed fields only; the API decides (lib/apps): its 400 details land on the matching control;
 * - the form shows the API's rules without enforcing them itself: under FAPI 2.0 the three
 *   requirements show on and locked and private_key_jwt is the only method, as the API stores them;
 *   private_key_jwt without keys is sent as chosen and the API's refusal is shown at the field;
 * - the JWK Set is parsed locally only to send it as JSON; every other check is the API's;
 * - the draft starts again from the server's values whenever they change (a save, another tab).
 */
import { CheckCircle2, Lock } from "lucide-react";
import { useId, useState } from "react";
import { ApiRequestError, formErrorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Card } from "@/components/ui/card";
import { Checkbox, Form, FormError, Input, Textarea } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import type { TOidcProfile, TTokenEndpointAuthMethod } from "@/lib/oidc/profile";
import { usePatchApp } from "./app-frame";
import { ClientConfiguration } from "./oidc-client-configuration";
import {
  FAPI2_RULES,
  fieldMessages,
  Group,
  LOCKED,
  METHODS,
  PROFILES,
  RadioCard,
} from "./oidc-security-parts";
import type { TApp } from "./queries";
import { SaveButton } from "./save-button";

type TMutation = ReturnType<typeof usePatchApp>;
type TKeySource = "jwks" | "uri";

/** The fields of the App resource this section edits, as one draft or one saved state. */
interface TSettings {
  oidcProfile: TOidcProfile;
  tokenEndpointAuthMethod: TTokenEndpointAuthMethod;
  requirePushedAuthorizationRequests: boolean;
  requireDpop: boolean;
  pkceRequired: boolean;
}

const FIELDS = [
  "oidcProfile",
  "tokenEndpointAuthMethod",
  "jwks",
  "jwksUri",
  "requirePushedAuthorizationRequests",
  "requireDpop",
  "pkceRequired",
] as const;

function savedSettings(app: TApp): TSettings {
  return {
    oidcProfile: app.oidcProfile,
    tokenEndpointAuthMethod: app.tokenEndpointAuthMethod,
    requirePushedAuthorizationRequests: app.requirePushedAuthorizationRequests,
    requireDpop: app.requireDpop,
    pkceRequired: app.pkceRequired,
  };
}

/** What a draft amounts to: under FAPI 2.0 what the API will store, whatever the draft held. */
function effective(draft: TSettings): TSettings {
  if (draft.oidcProfile !== "fapi2") return draft;
  return {
    oidcProfile: "fapi2",
    tokenEndpointAuthMethod: "private_key_jwt",
    requirePushedAuthorizationRequests: true,
    requireDpop: true,
    pkceRequired: true,
  };
}

const formatJwks = (jwks: unknown): string => (jwks == null ? "" : JSON.stringify(jwks, null, 2));

/** The JWK Set text as JSON to send: null when empty, an Error when it is not JSON. */
function parseJwks(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return new Error(
      'is not valid JSON: paste the whole JWK Set, like {"keys": [{"kty": "EC", "crv": "P-256", "x": "…", "y": "…"}]}',
    );
  }
}

function SecurityForm({ app, mutation }: { app: TApp; mutation: TMutation }) {
  const { permissions } = useConsole();
  const toast = useToast();
  const ids = useId();
  const saved = savedSettings(app);
  const [draft, setDraft] = useState<TSettings>(saved);
  const [keySource, setKeySource] = useState<TKeySource>(app.jwksUri ? "uri" : "jwks");
  const [jwksText, setJwksText] = useState(formatJwks(app.jwks));
  const [jwksUri, setJwksUri] = useState(app.jwksUri ?? "");
  const [jwksSyntax, setJwksSyntax] = useState<string>();

  const shown = effective(draft);
  const fapi2 = shown.oidcProfile === "fapi2";
  const readOnly = !permissions.write;
  const set = (change: Partial<TSettings>) => setDraft((d) => ({ ...d, ...change }));

  // the keys as they would be stored: one source at a time
  const parsedJwks = keySource === "jwks" ? parseJwks(jwksText) : null;
  const nextUri = keySource === "uri" ? jwksUri.trim() || null : null;
  const jwksChanged =
    parsedJwks instanceof Error || JSON.stringify(parsedJwks) !== JSON.stringify(app.jwks ?? null);
  const uriChanged = nextUri !== (app.jwksUri ?? null);
  const changed = (Object.keys(shown) as (keyof TSettings)[]).filter((k) => shown[k] !== saved[k]);
  const dirty = changed.length > 0 || jwksChanged || uriChanged;

  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const jwksError = jwksSyntax ?? fieldMessages(error, "jwks");
  const uriError = fieldMessages(error, "jwksUri");

  const submit = () => {
    if (parsedJwks instanceof Error) {
      setJwksSyntax(`JWK Set ${parsedJwks.message}`);
      return;
    }
    const patch: Record<string, unknown> = {};
    for (const k of changed) patch[k] = shown[k];
    // the API never holds both: changing the source sends the other one as null, in this PATCH
    if (jwksChanged) patch.jwks = parsedJwks;
    if (uriChanged) patch.jwksUri = nextUri;
    mutation.mutate(patch, {
      onSuccess: () => toast.show({ message: "OpenID Connect security saved" }),
    });
  };

  return (
    <Form className="space-y-6" onSubmit={submit}>
      <div className="grid gap-6 lg:grid-cols-2">
        <Group legend="Security profile" error={fieldMessages(error, "oidcProfile")}>
          <div className="space-y-2">
            {PROFILES.map((p) => (
              <RadioCard
                key={p.value}
                group={`${ids}-profile`}
                value={p.value}
                name={p.name}
                description={p.description}
                checked={draft.oidcProfile === p.value}
                disabled={readOnly}
                onChange={() => set({ oidcProfile: p.value })}
              />
            ))}
          </div>
          <div className="rounded-md border border-gray-200 bg-gray-50 px-3 py-2 text-sm text-gray-800">
            <p className="font-semibold text-gray-900">What FAPI 2.0 enforces</p>
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {FAPI2_RULES.map((rule, i) => (
                <li key={i}>{rule}</li>
              ))}
            </ul>
            <p className="mt-2">
              Your client must register its public keys here and support PAR, DPoP and private_key_jwt
              (openid-client 6 and oauth4webapi do). Switching needs private_key_jwt with keys.
            </p>
          </div>
        </Group>

        <div className="min-w-0 space-y-6">
          <Group
            legend="Client authentication"
            description="How your server proves it is this app at the token and PAR endpoints."
            error={fieldMessages(error, "tokenEndpointAuthMethod")}
          >
            <div className="space-y-2">
              {METHODS.map((m) => (
                <RadioCard
                  key={m.value}
                  group={`${ids}-method`}
                  value={m.value}
                  name={m.name}
                  description={m.description}
                  checked={shown.tokenEndpointAuthMethod === m.value}
                  disabled={readOnly || (fapi2 && m.value !== "private_key_jwt")}
                  onChange={() => set({ tokenEndpointAuthMethod: m.value })}
                />
              ))}
            </div>
            {fapi2 ? (
              <p className="flex items-center gap-1 text-sm text-gray-700">
                <Lock aria-hidden className="h-3.5 w-3.5 shrink-0" />
                FAPI 2.0 allows private_key_jwt only.
              </p>
            ) : null}
          </Group>

          <Group
            legend="Public keys"
            description="The keys your client signs with (private_key_jwt, signed request objects). Public keys only; give a JWK Set or the address of one."
          >
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {(
                [
                  ["jwks", "Paste a JWK Set"],
                  ["uri", "JWKS URL"],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="flex cursor-pointer items-center gap-2 text-sm text-gray-900">
                  <input
                    type="radio"
                    name={`${ids}-keys`}
                    value={value}
                    checked={keySource === value}
                    disabled={readOnly}
                    onChange={() => setKeySource(value)}
                    className="h-4 w-4 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                  />
                  {label}
                </label>
              ))}
            </div>
            {keySource === "jwks" ? (
              <Textarea
                label="JWK Set"
                rows={8}
                spellCheck={false}
                autoComplete="off"
                className="font-mono text-xs"
                placeholder={'{"keys": [{"kty": "EC", "crv": "P-256", "kid": "…", "x": "…", "y": "…"}]}'}
                value={jwksText}
                disabled={readOnly}
                onChange={(e) => {
                  setJwksText(e.target.value);
                  setJwksSyntax(undefined);
                }}
                error={jwksError}
                description="At most 10 EC, RSA (2048 bits or more) or Ed25519 keys, without private members. Checked when you save."
              />
            ) : (
              <>
                <Input
                  label="JWKS URL"
                  type="url"
                  inputMode="url"
                  placeholder="https://example.com/.well-known/jwks.json"
                  value={jwksUri}
                  disabled={readOnly}
                  onChange={(e) => setJwksUri(e.target.value)}
                  error={uriError}
                  description="An https address that serves your JWK Set; fetched again when a signature names an unknown kid."
                />
                {jwksError ? (
                  <p role="alert" className="text-sm font-medium text-red-700">
                    JWK Set: {jwksError}
                  </p>
                ) : null}
              </>
            )}
            {keySource === "jwks" && uriError ? (
              <p role="alert" className="text-sm font-medium text-red-700">
                JWKS URL: {uriError}
              </p>
            ) : null}
          </Group>
        </div>
      </div>

      <Group legend="Requirements" description="What every sign-in of this app must use.">
        <div className="grid gap-4 lg:grid-cols-3">
          <Checkbox
            label="Require pushed authorization requests (PAR)"
            description={
              <>
                Your server POSTs each sign-in request to the PAR endpoint first; plain <code>/auth</code>{" "}
                links are refused.
                {fapi2 ? LOCKED : null}
              </>
            }
            checked={shown.requirePushedAuthorizationRequests}
            disabled={readOnly || fapi2}
            onChange={(e) => set({ requirePushedAuthorizationRequests: e.target.checked })}
            error={fieldMessages(error, "requirePushedAuthorizationRequests")}
          />
          <Checkbox
            label="Require DPoP"
            description={
              <>
                Access tokens are bound to your client&apos;s key: token and userinfo requests carry a DPoP
                proof signed with it.
                {fapi2 ? LOCKED : null}
              </>
            }
            checked={shown.requireDpop}
            disabled={readOnly || fapi2}
            onChange={(e) => set({ requireDpop: e.target.checked })}
            error={fieldMessages(error, "requireDpop")}
          />
          <Checkbox
            label="Require PKCE"
            description={
              <>
                Sign-in requests without a <code>code_challenge</code> (S256) are refused with
                invalid_request. Recommended; on for new apps.
                {fapi2 ? LOCKED : null}
              </>
            }
            checked={shown.pkceRequired}
            disabled={readOnly || fapi2}
            onChange={(e) => set({ pkceRequired: e.target.checked })}
            error={fieldMessages(error, "pkceRequired")}
          />
        </div>
      </Group>

      <FormError message={formErrorMessage(mutation.error, ...FIELDS)} />
      <div className="flex flex-wrap items-center gap-3">
        <SaveButton disabled={!dirty} pending={mutation.isPending} />
        {dirty && !readOnly ? (
          <span className="text-sm text-gray-700">Unsaved changes</span>
        ) : mutation.isSuccess ? (
          <span className="flex items-center gap-1 text-sm text-green-800">
            <CheckCircle2 aria-hidden className="h-4 w-4" />
            Saved
          </span>
        ) : null}
      </div>
    </Form>
  );
}

/** A signature of the saved settings: the form starts again when any of them changes. */
function savedKey(app: TApp): string {
  return JSON.stringify([savedSettings(app), app.jwks ?? null, app.jwksUri ?? null]);
}

export function OidcSecurityCard({ app }: { app: TApp }) {
  const mutation = usePatchApp(app.clientId);
  return (
    <Card title="OpenID Connect security">
      <div className="space-y-6">
        <p className="text-sm text-gray-700">
          How your server signs users in through the OpenID Provider. Stricter settings protect codes and
          tokens even if they leak; switch one on once your client supports it.
        </p>
        <SecurityForm key={savedKey(app)} app={app} mutation={mutation} />
        <ClientConfiguration app={app} />
      </div>
    </Card>
  );
}
