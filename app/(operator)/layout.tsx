// Root layout of the back-office (English): the pages the people who run the service work in.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ConsoleProviders } from "@/components/console/providers";
import "../globals.css";

export const metadata: Metadata = {
  title: { default: "Back-office", template: "%s · Back-office" },
  description: "Activation review and contracts for the operators of the identity verification service.",
  robots: { index: false },
};

export default function OperatorRootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="bg-gray-50 text-gray-900 antialiased">
        <ConsoleProviders>{children}</ConsoleProviders>
      </body>
    </html>
  );
}
