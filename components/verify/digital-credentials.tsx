"use client";
/**
 * The dc flow: asks the browser's Digital Credentials API (navigator.credentials.get with an
 * OpenID4VP request) where the browser has it; otherwise (and always in the sandbox, where no
 * real wallet may answer) the wallet link is the way.
 */
import { useState, useSyncExternalStore } from "react";

interface Props {
  claims: string[];
  sandbox: boolean;
  walletUrl: string;
  texts: { intro: string; useBrowser: string; noApi: string; walletLink: string; failed: string };
}

function hasDigitalCredentials(): boolean {
  return typeof window !== "undefined" && "DigitalCredential" in window && !!navigator.credentials;
}

const noSubscription = () => () => {};

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function DigitalCredentials({ claims, sandbox, walletUrl, texts }: Props) {
  const [failed, setFailed] = useState(false);
  // false on the server and during hydration, the browser's answer afterwards
  const supported = useSyncExternalStore(
    noSubscription,
    () => !sandbox && hasDigitalCredentials(),
    () => false,
  );

  async function request() {
    setFailed(false);
    try {
      const options = {
        digital: {
          requests: [
            {
              protocol: "openid4vp-v1-unsigned",
              data: {
                response_type: "vp_token",
                response_mode: "dc_api",
                nonce: randomNonce(),
                dcql_query: {
                  credentials: [
                    {
                      id: "pid",
                      format: "dc+sd-jwt",
                      meta: { vct_values: ["urn:eudi:pid:1"] },
                      claims: claims.map((claim) => ({ path: [claim] })),
                    },
                  ],
                },
              },
            },
          ],
        },
      } as unknown as CredentialRequestOptions;
      const credential = await navigator.credentials.get(options);
      if (!credential) setFailed(true);
    } catch {
      setFailed(true);
    }
  }

  return (
    <div className="space-y-3">
      <p>{texts.intro}</p>
      {supported ? (
        <button
          type="button"
          onClick={request}
          className="w-full rounded-md bg-blue-700 px-4 py-3 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          {texts.useBrowser}
        </button>
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
        className="block w-full rounded-md border border-blue-700 px-4 py-3 text-center font-semibold text-blue-800 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        {texts.walletLink}
      </a>
    </div>
  );
}
