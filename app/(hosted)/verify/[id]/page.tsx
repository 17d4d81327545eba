// The hosted verification page: one view per flow type, live status, Cancel, and the outcome.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { loadVerifyView, servedLocale } from "@/app/(hosted)/_lib/page-data";
import { Button, buttonClass } from "@/components/ui/button";
import { Countdown } from "@/components/verify/countdown";
import { DigitalCredentials } from "@/components/verify/digital-credentials";
import { HostedFrame } from "@/components/verify/hosted-frame";
import { ProviderSummary } from "@/components/verify/provider-summary";
import { QrImage } from "@/components/verify/qr-image";
import { StatusWatcher } from "@/components/verify/status-watcher";
import { kysely } from "@/lib/db/client";
import { HOSTED_BINDING_COOKIE, hostedBrowser } from "@/lib/hosted/binding";
import { format, messagesFor, type TMessages } from "@/lib/hosted/i18n";
import { consoleUrlFor, phoneUrlFor } from "@/lib/hosted/links";
import type { THostedView } from "@/lib/hosted/view";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const view = await loadVerifyView(id);
  const t = messagesFor(await servedLocale(view));
  return { title: view ? `${t.pageTitle} – ${view.brand.name}` : t.notFoundTitle, robots: { index: false } };
}

function FinalView({ view, t }: { view: THostedView; t: TMessages }) {
  const status = view.status as keyof TMessages["finalTitle"];
  const vars = { app: view.brand.name, provider: view.provider.name };
  const tone =
    status === "completed"
      ? "border-green-300 bg-green-50"
      : status === "expired"
        ? "border-amber-300 bg-amber-50"
        : "border-red-300 bg-red-50";
  return (
    <section
      className={`space-y-2 rounded-lg border p-4 sm:p-6 ${tone}`}
      data-testid="final"
      data-status={status}
    >
      <h1 className="text-xl font-semibold">{t.finalTitle[status] ?? status}</h1>
      <p role="status">{format(t.finalBody[status] ?? "", vars)}</p>
      <ConsoleLink view={view} t={t} />
    </section>
  );
}

/**
 * Sandbox only: the way back to the session in the console for the workspace member who started
 * the test (lib/hosted/links.ts consoleUrlFor). An end-user who is not a member learns nothing
 * from it: the console asks for a sign-in first.
 */
function ConsoleLink({ view, t }: { view: THostedView; t: TMessages }) {
  const href = consoleUrlFor(view.id, view.environment);
  if (!href) return null;
  return (
    <div className="space-y-1 border-t border-black/10 pt-3">
      <a
        href={href}
        className="font-semibold text-blue-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        data-testid="console-link"
      >
        {t.sandbox.consoleLink}
      </a>
      <p className="text-sm text-gray-700">{t.sandbox.consoleHint}</p>
    </div>
  );
}

/**
 * An OpenID Provider sign-in opened in a browser that did not start it (a link someone sent, the
 * phone of a QR flow once done): nothing to act on here (lib/hosted/binding.ts).
 */
function OtherBrowserView({ view, t }: { view: THostedView; t: TMessages }) {
  const vars = { app: view.brand.name, provider: view.provider.name };
  return (
    <section
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 sm:p-6"
      data-testid="other-browser"
    >
      <h1 className="text-xl font-semibold">{t.otherBrowser.title}</h1>
      <p role="status">{format(view.ended ? t.otherBrowser.ended : t.otherBrowser.body, vars)}</p>
    </section>
  );
}

function FlowView({ view, t, error }: { view: THostedView; t: TMessages; error?: string }) {
  const vars = { app: view.brand.name, provider: view.provider.name };
  const sandbox = view.environment === "sandbox";
  switch (view.flowType) {
    case "redirect":
      return (
        <div className="space-y-3">
          <p>{format(t.redirect.intro, vars)}</p>
          <a
            href={`/verify/${view.id}/start`}
            className={buttonClass("primary", "lg", "w-full")}
            data-testid="continue"
          >
            {format(t.redirect.continue, vars)}
          </a>
        </div>
      );
    case "qr": {
      const phone = phoneUrlFor(view.id, view.environment, "qr");
      return (
        <div className="space-y-3">
          <p>{format(t.qr.intro, vars)}</p>
          <QrImage verificationId={view.id} alt={t.qr.alt} />
          <p className="text-center text-sm text-gray-700">{t.qr.refreshes}</p>
          {sandbox ? (
            // the sandbox QR code points at this service's own address, which a phone may not
            // reach: the simulator opens in this browser, on every device
            <>
              <a
                href={phone}
                target="_blank"
                rel="noopener"
                className={buttonClass("secondary", "lg", "w-full")}
                data-testid="simulator-link"
                aria-describedby="simulator-hint"
              >
                {t.sandbox.simulatorLink}
              </a>
              <p id="simulator-hint" className="text-center text-sm text-gray-700">
                {format(t.sandbox.simulatorHint, vars)}
              </p>
            </>
          ) : (
            <a
              href={phone}
              className={buttonClass("secondary", "lg", "w-full sm:hidden")}
              data-testid="same-device"
            >
              {format(t.qr.sameDevice, vars)}
            </a>
          )}
        </div>
      );
    }
    case "push": {
      const id = view.push!;
      const identifier = (t.identifiers as Record<string, string>)[id.kind] ?? id.kind;
      if (view.status === "awaiting_user_action") {
        return (
          <form method="post" action={`/verify/${view.id}/push`} className="space-y-3" noValidate={false}>
            <p>{format(t.push.intro, { ...vars, identifier })}</p>
            <label htmlFor="identifier" className="block font-semibold">
              {identifier.charAt(0).toUpperCase() + identifier.slice(1)}
            </label>
            <input
              id="identifier"
              name="identifier"
              required
              pattern={id.inputPattern}
              inputMode={id.inputMode}
              autoComplete={id.autoComplete}
              placeholder={id.example}
              aria-describedby={error ? "identifier-error" : undefined}
              aria-invalid={error ? true : undefined}
              className="block w-full rounded-md border border-gray-500 px-3 py-2 text-base"
            />
            {error ? (
              <p id="identifier-error" role="alert" className="text-sm text-red-800">
                {format(t.push.invalid, { identifier, example: id.example })}
              </p>
            ) : null}
            <Button type="submit" size="lg" className="w-full">
              {t.push.submit}
            </Button>
          </form>
        );
      }
      return (
        <div className="space-y-3">
          <p className="font-semibold">{format(t.push.approve, vars)}</p>
          {sandbox ? (
            <a
              href={phoneUrlFor(view.id, view.environment, "push")}
              target="_blank"
              rel="noopener"
              className={buttonClass("secondary", "lg", "w-full")}
              data-testid="push-app"
            >
              {t.push.simulatorLink}
            </a>
          ) : null}
        </div>
      );
    }
    case "dc":
      return (
        <DigitalCredentials
          claims={view.sharing.mode === "claims" ? view.sharing.claims : ["birthdate"]}
          sandbox={sandbox}
          walletUrl={phoneUrlFor(view.id, view.environment, "dc")}
          texts={t.dc}
        />
      );
  }
}

export default async function HostedVerificationPage({ params, searchParams }: Props) {
  const { id } = await params;
  // the root layout loaded the same view (cached per request) for <html lang>
  const view = await loadVerifyView(id);
  const locale = await servedLocale(view);
  const t = messagesFor(locale);
  if (!view) notFound();
  // the return goes to one browser only (lib/hosted/binding.ts): the first to open a REST
  // session's page takes it; an OpenID Provider session belongs to the browser that started it
  const secret = (await cookies()).get(HOSTED_BINDING_COOKIE)?.value;
  const browser = await hostedBrowser(kysely(), view.id, secret);
  if (browser?.claimable) redirect(`/verify/${view.id}/bind`);
  if (browser?.next) redirect(browser.next);
  if (browser?.oidc && !browser.bound) {
    return (
      <HostedFrame brand={view.brand} badge={view.environment === "sandbox" ? t.sandboxBadge : undefined}>
        <OtherBrowserView view={view} t={t} />
      </HostedFrame>
    );
  }
  const error = (await searchParams).error === "identifier" ? "identifier" : undefined;
  const vars = { app: view.brand.name, provider: view.provider.name };
  const statusTexts = Object.fromEntries(Object.entries(t.status).map(([k, v]) => [k, format(v, vars)]));

  return (
    <HostedFrame brand={view.brand} badge={view.environment === "sandbox" ? t.sandboxBadge : undefined}>
      {view.ended ? (
        <FinalView view={view} t={t} />
      ) : (
        <>
          <ProviderSummary view={view} t={t} locale={locale} />
          <section
            aria-label={t.statusLabel}
            className="space-y-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6"
          >
            <FlowView view={view} t={t} error={error} />
            <StatusWatcher
              verificationId={view.id}
              initialStatus={view.status}
              label={t.statusLabel}
              texts={statusTexts}
              redirecting={format(t.redirecting, vars)}
            />
            <Countdown expiresAt={view.expiresAt} template={t.expiresIn} expired={t.expiredNow} />
          </section>
          <form method="post" action={`/verify/${view.id}/cancel`}>
            <Button type="submit" variant="secondary" size="lg" className="w-full" data-testid="cancel">
              {t.cancel}
            </Button>
          </form>
        </>
      )}
    </HostedFrame>
  );
}
