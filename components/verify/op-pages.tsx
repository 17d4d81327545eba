/**
 * The OpenID Provider's pages in the hosted frame: the provider picker and the error page, in the
 * hosted pages' languages. The OP's route handlers answer them (app/oidc/_lib/op-page.ts), because
 * their statuses (400, 404, 429 …) are beyond a Next.js page, so they are rendered with
 * static-markup.ts and styled by the Tailwind build of this file and the frame (op-page-styles.ts,
 * inlined; regenerate with `npx tsx scripts/op-page-css.ts`). No script: every choice is a link.
 */
import type { ReactNode } from "react";
import { countryNames, format, type TLocale, type TMessages } from "@/lib/hosted/i18n";
import { messagesFor } from "@/lib/hosted/i18n";
import type { TOpErrorPage, TOpPage, TOpPickerPage } from "@/lib/oidc/provider/page";
import { HostedFrame } from "./hosted-frame";
import { OP_PAGE_CSS } from "./op-page-styles";
import { staticMarkup } from "./static-markup";

/** The whole document: `<html lang>` is the served language, the stylesheet is inline. */
export function OpDocument({ lang, title, children }: { lang: TLocale; title: string; children: ReactNode }) {
  return (
    <html lang={lang}>
      {/* eslint-disable-next-line @next/next/no-head-element -- a document rendered outside Next.js */}
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: OP_PAGE_CSS }} />
      </head>
      <body>{children}</body>
    </html>
  );
}

function countriesText(codes: string[], locale: TLocale): string {
  const names =
    codes.length > 8 ? [...countryNames(codes.slice(0, 8), locale), "…"] : countryNames(codes, locale);
  return names.join(", ");
}

export function OpPicker({ page, t, locale }: { page: TOpPickerPage; t: TMessages; locale: TLocale }) {
  return (
    <HostedFrame brand={page.app} badge={page.environment === "sandbox" ? t.sandboxBadge : undefined}>
      <section
        aria-labelledby="picker-heading"
        className="space-y-4 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6"
      >
        <h1 id="picker-heading" className="text-xl font-semibold">
          {format(t.op.signIn, { app: page.app.name })}
        </h1>
        <p id="picker-intro">{t.op.choose}</p>
        <ul aria-labelledby="picker-intro" className="space-y-2">
          {page.providers.map((provider) => {
            const query = new URLSearchParams(page.search);
            query.set("provider", provider.id);
            return (
              <li key={provider.id}>
                <a
                  href={`auth?${query.toString()}`}
                  data-provider={provider.id}
                  className="flex items-center gap-3 rounded-md border border-gray-400 bg-white px-4 py-3 hover:border-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                >
                  {provider.logo ? (
                    // eslint-disable-next-line @next/next/no-img-element -- an inlined catalog SVG
                    <img src={provider.logo} alt="" width={40} height={40} className="h-10 w-10 shrink-0" />
                  ) : null}
                  <span className="min-w-0 break-words">
                    <span className="block font-semibold">{provider.name}</span>
                    <span className="block text-sm text-gray-700">
                      {format(t.providerCountries, { countries: countriesText(provider.countries, locale) })}
                    </span>
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
      </section>
    </HostedFrame>
  );
}

export function OpError({ page, t, locale }: { page: TOpErrorPage; t: TMessages; locale: TLocale }) {
  const reason = page.reason ? format(t.op.reasons[page.reason], page.vars ?? {}) : undefined;
  return (
    <HostedFrame brand={{ name: t.pageTitle }}>
      <section
        className="space-y-3 rounded-lg border border-red-300 bg-red-50 p-4 sm:p-6"
        data-testid="op-error"
      >
        <h1 className="text-xl font-semibold">{t.op.errorTitle}</h1>
        {/* without a reason, the technical description, in English as the client gets it */}
        <p
          id="error"
          data-error={page.error.code}
          lang={reason === undefined && locale !== "en" ? "en" : undefined}
          className="break-words"
        >
          {reason ?? page.error.message}
        </p>
        <p>{t.op.errorHint}</p>
      </section>
    </HostedFrame>
  );
}

/** The page as an HTML document in `locale`. */
export function renderOpPage(page: TOpPage, locale: TLocale): string {
  const t = messagesFor(locale);
  const document =
    page.kind === "picker" ? (
      <OpDocument lang={locale} title={format(t.op.signIn, { app: page.app.name })}>
        <OpPicker page={page} t={t} locale={locale} />
      </OpDocument>
    ) : (
      <OpDocument lang={locale} title={t.op.errorTitle}>
        <OpError page={page} t={t} locale={locale} />
      </OpDocument>
    );
  return `<!DOCTYPE html>${staticMarkup(document)}`;
}
