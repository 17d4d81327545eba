import type { ReactNode } from "react";

/** A bordered panel: the basic surface of the console and hosted pages. */
export function Card({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      {title ? <h2 className="mb-3 text-lg font-semibold text-gray-900">{title}</h2> : null}
      {children}
    </section>
  );
}
