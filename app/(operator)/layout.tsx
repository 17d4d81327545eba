// Root layout of the back-office (English): the pages the people who run the service work in.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ConsoleDocument } from "@/components/console/document";
import "../globals.css";

export const metadata: Metadata = {
  title: { default: "Back-office", template: "%s · Back-office" },
  description: "Activation review and contracts for the operators of the identity verification service.",
  robots: { index: false },
};

export default function OperatorRootLayout({ children }: { children: ReactNode }) {
  return <ConsoleDocument>{children}</ConsoleDocument>;
}
