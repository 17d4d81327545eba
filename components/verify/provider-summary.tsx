/** The provider (name, logo, countries) and what the app will receive. */
import { countryNames, format, type TLocale, type TMessages } from "@/lib/hosted/i18n";
import type { THostedView } from "@/lib/hosted/view";

export function ProviderSummary({ view, t, locale }: { view: THostedView; t: TMessages; locale: TLocale }) {
  const countries = view.provider.countries;
  const shownCountries =
    countries.length > 8
      ? [...countryNames(countries.slice(0, 8), locale), "…"]
      : countryNames(countries, locale);
  const vars = { app: view.brand.name, provider: view.provider.name };
  const claimLabels = t.claims as Record<string, string>;
  return (
    <section
      aria-labelledby="provider-heading"
      className="space-y-4 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="flex items-center gap-3">
        {view.provider.logo ? (
          // eslint-disable-next-line @next/next/no-img-element -- an inlined catalog SVG
          <img src={view.provider.logo} alt="" width={48} height={48} className="h-12 w-12" />
        ) : null}
        <div>
          <h1 id="provider-heading" className="text-xl font-semibold" data-testid="provider-heading">
            {format(t.verifyWith, vars)}
          </h1>
          <p className="text-sm text-gray-700">
            {format(t.providerCountries, { countries: shownCountries.join(", ") })}
          </p>
        </div>
      </div>
      <p>{format(t.requestedBy, vars)}</p>
      <div>
        <h2 className="font-semibold">{format(t.whatIsShared, vars)}</h2>
        {view.sharing.mode === "age" ? (
          <p data-testid="sharing">{format(t.ageOnly, { age: view.sharing.minimumAge })}</p>
        ) : (
          <>
            <p className="text-sm text-gray-700">{format(t.sharedIntro, vars)}</p>
            <ul className="mt-1 list-disc pl-6" data-testid="sharing">
              {view.sharing.claims.map((claim) => (
                <li key={claim}>{claimLabels[claim] ?? claim}</li>
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}
