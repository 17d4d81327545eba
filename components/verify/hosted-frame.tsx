/**
 * The frame of every hosted and simulator page: who asks (brand), a sandbox marker, and one main
 * landmark. The page's language is on `<html lang>` (components/verify/hosted-document.tsx).
 * Works from 360 px up; no remote fonts. Buttons come from components/ui/button.tsx, full width
 * and large on these pages.
 */
import type { ReactNode } from "react";

interface Props {
  brand: { name: string; logo?: string };
  badge?: string;
  children: ReactNode;
}

export function HostedFrame({ brand, badge, children }: Props) {
  return (
    <div className="min-h-screen bg-gray-50 text-gray-900">
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex max-w-xl items-center gap-3 px-4 py-3">
          {brand.logo ? (
            // eslint-disable-next-line @next/next/no-img-element -- a data URL logo
            <img
              src={brand.logo}
              alt=""
              width={40}
              height={40}
              className="h-10 w-10 rounded object-contain"
            />
          ) : null}
          <span className="text-lg font-semibold" data-testid="brand-name">
            {brand.name}
          </span>
          {badge ? (
            <span className="ml-auto rounded bg-amber-200 px-2 py-1 text-xs font-bold text-amber-950 uppercase">
              {badge}
            </span>
          ) : null}
        </div>
      </header>
      <main className="mx-auto max-w-xl space-y-4 px-4 py-6">{children}</main>
    </div>
  );
}
