// Root layout of the console: sign-in, sign-up, invitations and the workspace pages (English).
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ConsoleDocument } from "@/components/console/document";
import "../globals.css";

export const metadata: Metadata = {
  title: { default: "Identity verification console", template: "%s · Identity verification console" },
  description:
    "Manage apps, providers, workflows and verifications of your identity verification integration.",
  robots: { index: false },
};

export default function ConsoleRootLayout({ children }: { children: ReactNode }) {
  return <ConsoleDocument>{children}</ConsoleDocument>;
}
