// The HTML document of the console's and the back-office's root layouts (English): page colours
// and the console's providers (query client, toasts).
import type { ReactNode } from "react";
import { ConsoleProviders } from "./providers";

export function ConsoleDocument({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="bg-gray-50 text-gray-900 antialiased">
        <ConsoleProviders>{children}</ConsoleProviders>
      </body>
    </html>
  );
}
