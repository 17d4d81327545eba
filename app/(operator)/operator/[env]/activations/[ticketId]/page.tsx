import type { Metadata } from "next";
import { Suspense } from "react";
import { TicketReview } from "@/components/operator/ticket-review";

export const metadata: Metadata = { title: "Activation ticket" };

export default async function TicketPage({ params }: { params: Promise<{ ticketId: string }> }) {
  const { ticketId } = await params;
  return (
    <Suspense>
      <TicketReview ticketId={ticketId} />
    </Suspense>
  );
}
