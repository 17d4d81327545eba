import type { Metadata } from "next";
import { DeliveryDetail } from "@/components/webhooks/delivery-detail";

export const metadata: Metadata = { title: "Webhook delivery" };

export default async function WebhookDeliveryPage({ params }: { params: Promise<{ deliveryId: string }> }) {
  const { deliveryId } = await params;
  return <DeliveryDetail deliveryId={deliveryId} />;
}
