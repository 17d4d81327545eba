// The sandbox stand-in for a provider's own screen (or "the phone" / the wallet for qr, push, dc).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { loadSimulatorView, servedLocale } from "@/app/(hosted)/_lib/page-data";
import { SimulatorForm } from "@/components/sandbox/simulator-form";
import { buttonClass } from "@/components/ui/button";
import { HostedFrame } from "@/components/verify/hosted-frame";
import { format, messagesFor } from "@/lib/hosted/i18n";
import { listTestIdentities } from "@/lib/providers/adapters/simulator";
import { findProvider, isFlowType, type TFlowType } from "@/lib/providers/catalog";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: "Sandbox provider simulator", robots: { index: false } };

export default async function SimulatorPage({ params, searchParams }: Props) {
  const { id } = await params;
  const query = await searchParams;
  // production sessions have no simulator: as if the page did not exist (null, like unknown ids);
  // the root layout loaded the same view (cached per request) for <html lang>
  const view = await loadSimulatorView(id);
  if (!view) notFound();
  const locale = await servedLocale(view);
  const t = messagesFor(locale);
  const flowParam = typeof query.flow === "string" ? query.flow : view.flowType;
  const flow: TFlowType = isFlowType(flowParam) ? flowParam : view.flowType;
  const vars = { app: view.brand.name, provider: view.provider.name };
  const provider = findProvider(view.provider.id)!;
  const identities = listTestIdentities(provider);
  const intro =
    flow === "qr"
      ? t.sim.phoneIntro
      : flow === "push"
        ? t.sim.pushIntro
        : flow === "dc"
          ? t.sim.walletIntro
          : null;

  return (
    <HostedFrame
      brand={{ name: format(t.sim.title, vars), ...(view.provider.logo ? { logo: view.provider.logo } : {}) }}
      badge="Sandbox"
    >
      <p
        role="note"
        className="rounded-md border-2 border-dashed border-amber-500 bg-amber-50 p-3 text-sm font-semibold text-amber-950"
        data-testid="sandbox-banner"
      >
        {format(t.sim.banner, vars)}
      </p>
      <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
        <h1 className="text-xl font-semibold">{flow === "qr" ? t.sim.phoneTitle : view.provider.name}</h1>
        <p className="text-sm text-gray-700">{format(t.sim.forApp, vars)}</p>
        {intro ? <p>{format(intro, vars)}</p> : null}
        {query.done === "1" ? (
          <div role="status" data-testid="sim-done">
            <h2 className="font-semibold">{t.sim.doneTitle}</h2>
            <p>{t.sim.doneBody}</p>
          </div>
        ) : view.ended ? (
          <div className="space-y-3">
            <p role="status">
              {format(t.sim.ended, {
                status: t.finalTitle[view.status as keyof typeof t.finalTitle] ?? view.status,
              })}
            </p>
            <a href={`/verify/${view.id}`} className={buttonClass("primary", "lg", "w-full")}>
              {t.sim.back}
            </a>
          </div>
        ) : (
          <SimulatorForm
            verificationId={view.id}
            flow={flow}
            identities={identities.map((i) => ({
              id: i.id,
              description: i.description,
              loa: `${t.sim.loa}: ${(t.loaLabels as Record<string, string>)[String(i.loa)] ?? i.loa}`,
            }))}
            texts={t.sim}
          />
        )}
      </section>
    </HostedFrame>
  );
}
