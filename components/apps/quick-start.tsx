"use client";
/** Copy-ready snippets filled with this app's ids (never its secret). */
import { useState, useSyncExternalStore } from "react";
import { useConsole } from "@/components/console/context";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { SegmentedControl } from "@/components/ui/tabs";
import type { TApp } from "./queries";

type Snippet = "curl" | "node" | "oidc" | "next-auth";

function snippets(origin: string, env: string, clientId: string): Record<Snippet, string> {
  const base = `${origin}/api/${env}`;
  const issuer = `${origin}/oidc/${env}`;
  return {
    curl: `# IDV_CLIENT_SECRET holds the client secret shown when the app was created
curl -u "${clientId}:$IDV_CLIENT_SECRET" \\
  -H "Content-Type: application/json" \\
  -d '{"providerId":"passport"}' \\
  ${base}/v1/verifications`,
    node: `const credentials = Buffer.from(\`${clientId}:\${process.env.IDV_CLIENT_SECRET}\`).toString("base64");
const res = await fetch("${base}/v1/verifications", {
  method: "POST",
  headers: { Authorization: \`Basic \${credentials}\`, "Content-Type": "application/json" },
  body: JSON.stringify({ providerId: "passport" }),
});
const verification = await res.json();
// send the end-user to verification.url, then read GET ${base}/v1/verifications/{id}
console.log(res.status, verification);`,
    oidc: `${issuer}/.well-known/openid-configuration`,
    "next-auth": `// app/api/auth/[...nextauth]/route.ts (next-auth 4); add the callback URL
// {your site}/api/auth/callback/idv to this app's redirect URIs
import NextAuth from "next-auth";

const handler = NextAuth({
  providers: [
    {
      id: "idv",
      name: "Electronic ID",
      type: "oauth",
      wellKnown: "${issuer}/.well-known/openid-configuration",
      clientId: "${clientId}",
      clientSecret: process.env.IDV_CLIENT_SECRET,
      client: { id_token_signed_response_alg: "ES256" },
      authorization: { params: { scope: "openid profile" } },
      idToken: true,
      checks: ["pkce", "state", "nonce"],
      profile(profile) {
        return { id: profile.sub, name: profile.sub };
      },
    },
  ],
});

export { handler as GET, handler as POST };`,
  };
}

const LABELS: Record<Snippet, string> = {
  curl: "curl",
  node: "Node fetch",
  oidc: "OIDC discovery",
  "next-auth": "next-auth",
};

const subscribeNever = () => () => {};

export function QuickStart({ app }: { app: TApp }) {
  const { env } = useConsole();
  // The snippets name the address the console is served on; the server render has none.
  const origin = useSyncExternalStore(
    subscribeNever,
    () => window.location.origin,
    () => "",
  );
  const [tab, setTab] = useState<Snippet>("curl");
  const all = snippets(origin, env, app.clientId);
  return (
    <Card title="Quick start">
      <div className="space-y-3">
        <p className="text-sm text-gray-700">
          Create a verification from your server with the app&apos;s credentials, or sign users in through the
          OpenID Provider.
        </p>
        <SegmentedControl
          label="Snippet"
          value={tab}
          onChange={setTab}
          options={(Object.keys(LABELS) as Snippet[]).map((value) => ({ value, label: LABELS[value] }))}
        />
        <div className="relative">
          <pre
            className="overflow-x-auto rounded-md bg-gray-900 p-4 pr-24 text-xs leading-relaxed text-gray-100"
            tabIndex={0}
            aria-label={`${LABELS[tab]} snippet`}
          >
            <code>{all[tab]}</code>
          </pre>
          <CopyButton value={all[tab]} label="Copy snippet" className="absolute top-2 right-2" />
        </div>
      </div>
    </Card>
  );
}
