import { ScrollText } from "lucide-react";
import type { ReactNode } from "react";

/** The frame of the signed-out pages: sign-in, sign-up, invitations. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm space-y-6">
        <div className="flex flex-col items-center gap-2 text-center">
          <ScrollText aria-hidden className="h-8 w-8 text-blue-700" />
          <p className="text-sm font-semibold text-gray-700">Identity verification broker</p>
          <h1 className="text-2xl font-semibold text-gray-900">{title}</h1>
        </div>
        <div className="space-y-4 rounded-lg border border-gray-200 bg-white p-6 shadow-sm">{children}</div>
      </div>
    </main>
  );
}
