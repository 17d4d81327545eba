import type { Metadata } from "next";
import { WebhooksTab } from "@/components/webhooks/webhooks-tab";

export const metadata: Metadata = { title: "Webhooks" };

export default function AppWebhooksPage() {
  return <WebhooksTab />;
}
