"use client";
/**
 * What the integrator's client configures for this app's OpenID sign-in: issuer, endpoints and the
 * saved settings, from the environment's discovery document (the issuer is PUBLIC_URL's), as one
 * copyable block.
 */
import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { useConsole } from "@/components/console/context";
import { CopyButton } from "@/components/ui/copy-button";
import { oidcKeys, type TApp, type TOidcDiscovery } from "./queries";

/** The environment's discovery document, read from the OP itself (its issuer is PUBLIC_URL's). */
function useDiscovery() {
  const { env } = useConsole();
  return useQuery({
    queryKey: oidcKeys.discovery(env),
    queryFn: async ({ signal }) => {
      const res = await fetch(`/oidc/${env}/.well-known/openid-configuration`, { signal });
      if (!res.ok) throw new Error(`The discovery document could not be read (${res.status})`);
      return (await res.json()) as TOidcDiscovery;
    },
    staleTime: 5 * 60_000,
  });
}

const subscribeNever = () => () => {};

/** The saved settings as the client library's configuration, ready to copy. */
export function ClientConfiguration({ app }: { app: TApp }) {
  const { env } = useConsole();
  const discovery = useDiscovery();
  // while loading, or if the OP is not served on this host, the issuer on the console's own host
  // (the server render has no address: see QuickStart)
  const origin = useSyncExternalStore(
    subscribeNever,
    () => window.location.origin,
    () => "",
  );
  const issuer = discovery.data?.issuer ?? `${origin}/oidc/${env}`;
  const config = {
    issuer,
    client_id: app.clientId,
    token_endpoint_auth_method: app.tokenEndpointAuthMethod,
    pushed_authorization_request_endpoint:
      discovery.data?.pushed_authorization_request_endpoint ?? `${issuer}/par`,
    token_endpoint: discovery.data?.token_endpoint ?? `${issuer}/token`,
    require_pushed_authorization_requests: app.requirePushedAuthorizationRequests,
    dpop_bound_access_tokens: app.requireDpop,
  };
  const text = JSON.stringify(config, null, 2);
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold text-gray-900">Your client&apos;s configuration</h3>
      <p className="text-sm text-gray-700">
        The saved settings, as your OpenID client library takes them. Discovery lists every endpoint:{" "}
        <code className="break-all">{issuer}/.well-known/openid-configuration</code>. A custom domain (Domain
        tab) has its own issuer.
      </p>
      <div className="relative">
        <pre
          className="overflow-x-auto rounded-md bg-gray-900 p-4 pt-10 text-xs leading-relaxed text-gray-100 sm:pt-4 sm:pr-32"
          tabIndex={0}
          aria-label="Client configuration"
        >
          <code>{text}</code>
        </pre>
        <CopyButton value={text} label="Copy configuration" className="absolute top-2 right-2" />
      </div>
    </div>
  );
}
