// The end of a test sign-in (opened in a new tab by the connection page): the result sealed in this
// browser's cookie by the callback, shown to the session that started it only; nothing stored.
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { environmentParam } from "@/components/console/server-session";
import { TestSignInResultView } from "@/components/operator/connections/test-result";
import { readTestSignInResult } from "@/lib/connections/test-sign-in-cookies";
import { findProvider } from "@/lib/providers/catalog";

export const metadata: Metadata = { title: "Test sign-in" };
export const dynamic = "force-dynamic";

export default async function TestSignInResultPage({
  params,
}: {
  params: Promise<{ env: string; providerId: string }>;
}) {
  const env = await environmentParam(params);
  const { providerId } = await params;
  const result = await readTestSignInResult((await headers()).get("cookie"), env, providerId);
  const providerName = findProvider(providerId)?.name ?? providerId;
  const back = (
    <Link
      href={`/operator/${env}/connections/${encodeURIComponent(providerId)}`}
      className="text-sm font-semibold text-blue-800 underline"
    >
      Back to the connection of {providerName}
    </Link>
  );
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Test sign-in</h1>
      {result ? (
        <TestSignInResultView env={env} providerId={providerId} providerName={providerName} result={result} />
      ) : (
        <p className="text-sm text-gray-700">
          No test sign-in result for this provider in this browser: it is shown for a few minutes after the
          sign-in, to the session that started it. Start one from the connection page.
        </p>
      )}
      {back}
    </div>
  );
}
