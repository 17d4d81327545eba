// Unknown or malformed session ids, and production sessions on the simulator: one page for both.
import type { TLocale } from "@/lib/hosted/i18n";
import { messagesFor } from "@/lib/hosted/i18n";
import { HostedFrame } from "./hosted-frame";

export function HostedNotFound({ locale }: { locale: TLocale }) {
  const t = messagesFor(locale);
  return (
    <HostedFrame brand={{ name: t.pageTitle }}>
      <h1 className="text-xl font-semibold">{t.notFoundTitle}</h1>
      <p>{t.notFoundBody}</p>
    </HostedFrame>
  );
}
