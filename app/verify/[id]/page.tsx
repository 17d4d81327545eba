// The hosted verification page: one view per flow type, live status, Cancel, and the outcome.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { Countdown } from "@/components/verify/countdown";
import { DigitalCredentials } from "@/components/verify/digital-credentials";
import { buttonClass, HostedFrame, secondaryButtonClass } from "@/components/verify/hosted-frame";
import { ProviderSummary } from "@/components/verify/provider-summary";
import { QrImage } from "@/components/verify/qr-image";
import { StatusWatcher } from "@/components/verify/status-watcher";
import { getDb } from "@/lib/db/client";
import { format, messagesFor, pickLocale, type TMessages } from "@/lib/hosted/i18n";
import { phoneUrlFor } from "@/lib/hosted/links";
import { loadHostedView, type THostedView } from "@/lib/hosted/view";
import { returnUrlFor } from "@/lib/verifications/return";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

async function localeOf(view: THostedView | null) {
  return pickLocale(view?.locale, (await headers()).get("accept-language"));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const view = await loadHostedView(getDb(), id);
  const t = messagesFor(await localeOf(view));
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
          <a href={`/verify/${view.id}/start`} className={buttonClass} data-testid="continue">
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
          <a href={phone} className={`${secondaryButtonClass} sm:hidden`} data-testid="same-device">
            {format(t.qr.sameDevice, vars)}
          </a>
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
            <button type="submit" className={buttonClass}>
              {t.push.submit}
            </button>
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
              className={secondaryButtonClass}
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
  const db = getDb();
  const view = await loadHostedView(db, id);
  const locale = await localeOf(view);
  const t = messagesFor(locale);
  if (!view) notFound();
  if (view.ended) {
    const next = await returnUrlFor(db, view.id);
    if (next) redirect(next);
  }
  const error = (await searchParams).error === "identifier" ? "identifier" : undefined;
  const vars = { app: view.brand.name, provider: view.provider.name };
  const statusTexts = Object.fromEntries(Object.entries(t.status).map(([k, v]) => [k, format(v, vars)]));

  return (
    <HostedFrame
      lang={locale}
      brand={view.brand}
      badge={view.environment === "sandbox" ? t.sandboxBadge : undefined}
    >
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
            <button type="submit" className={secondaryButtonClass} data-testid="cancel">
              {t.cancel}
            </button>
          </form>
        </>
      )}
    </HostedFrame>
  );
}
