// Unknown or malformed session ids (and production sessions on the simulator pages).
import { headers } from "next/headers";
import { HostedFrame } from "@/components/verify/hosted-frame";
import { messagesFor, pickLocale } from "@/lib/hosted/i18n";

export default async function HostedNotFound() {
  const locale = pickLocale(null, (await headers()).get("accept-language"));
  const t = messagesFor(locale);
  return (
    <HostedFrame lang={locale} brand={{ name: t.pageTitle }}>
      <h1 className="text-xl font-semibold">{t.notFoundTitle}</h1>
      <p>{t.notFoundBody}</p>
    </HostedFrame>
  );
}
