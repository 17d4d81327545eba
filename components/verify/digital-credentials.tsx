"use client";
/**
 * The dc flow: asks the browser's Digital Credentials API (navigator.credentials.get with the
 * OpenID4VP request the server built for this session, GET /verify/{id}/wallet) where the
 * browser has it, and posts the wallet's answer back (POST /verify/{id}/wallet); the status
 * watcher then sees the session end. Otherwise (and always in the sandbox, where no real wallet
 * may answer) the wallet link is the way.
 */
import { useState, useSyncExternalStore } from "react";
import { Button, buttonClass } from "@/components/ui/button";

interface Props {
  /** kept for the page's signature; the server's request names the claims to ask for */
  claims: string[];
  sandbox: boolean;
  walletUrl: string;
  texts: { intro: string; useBrowser: string; noApi: string; walletLink: string; failed: string };
}

function hasDigitalCredentials(): boolean {
  return typeof window !== "undefined" && "DigitalCredential" in window && !!navigator.credentials;
}

const noSubscription = () => () => {};

/** /verify/{id}/wallet, relative to the page (also on an app's custom domain, where /verify stays) */
function walletEndpoint(): string {
  return `${window.location.pathname.replace(/\/+$/, "")}/wallet`;
}

export function DigitalCredentials({ sandbox, walletUrl, texts }: Props) {
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  // false on the server and during hydration, the browser's answer afterwards
  const supported = useSyncExternalStore(
    noSubscription,
    () => !sandbox && hasDigitalCredentials(),
    () => false,
  );

  async function request() {
    setFailed(false);
    setBusy(true);
    try {
      const endpoint = walletEndpoint();
      const asked = await fetch(endpoint, { cache: "no-store", headers: { Accept: "application/json" } });
      if (!asked.ok) throw new Error("no wallet request");
      const walletRequest = (await asked.json()) as unknown;
      const options = { digital: { requests: [walletRequest] } } as unknown as CredentialRequestOptions;
      const credential = (await navigator.credentials.get(options)) as { data?: unknown } | null;
      if (!credential?.data) throw new Error("no credential");
      // the DC API may hand the response over as a JSON string or an object
      const data: unknown =
        typeof credential.data === "string" ? JSON.parse(credential.data) : credential.data;
      const answered = await fetch(endpoint, {
        method: "POST",
        cache: "no-store",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ data }),
      });
      // a refused presentation ends the session as failed: the status watcher shows that
      if (!answered.ok) throw new Error("answer refused");
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3">
      <p>{texts.intro}</p>
      {supported ? (
        <Button onClick={request} pending={busy} size="lg" className="w-full">
          {texts.useBrowser}
        </Button>
      ) : (
        <p className="text-sm text-gray-700">{texts.noApi}</p>
      )}
      {failed ? (
        <p role="alert" className="text-sm text-red-800">
          {texts.failed}
        </p>
      ) : null}
      <a
        href={walletUrl}
        target="_blank"
        rel="noopener"
        data-testid="wallet-link"
        // outlined in the primary colour: the way that always works, next to the browser's own
        className={buttonClass("secondary", "lg", "w-full border-blue-700 text-blue-800 hover:bg-blue-50")}
      >
        {texts.walletLink}
      </a>
    </div>
  );
}
