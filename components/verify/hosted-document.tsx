/**
 * The document of the hosted and simulator pages (their root layouts render it): `<html lang>` is
 * the language the page is served in (WCAG 3.1.1), not a fixed "en".
 */
import type { ReactNode } from "react";
import type { TLocale } from "@/lib/hosted/i18n";

export function HostedDocument({ lang, children }: { lang: TLocale; children: ReactNode }) {
  return (
    <html lang={lang}>
      <body>{children}</body>
    </html>
  );
}
