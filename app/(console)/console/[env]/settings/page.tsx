import type { Metadata } from "next";
import { SettingsPage } from "@/components/console/settings";

export const metadata: Metadata = { title: "Settings" };

export default function Settings() {
  return <SettingsPage />;
}
