// An invitation link (signed out): join a workspace with a new or an existing account.
import type { Metadata } from "next";
import { AcceptInvitation } from "@/components/team/accept-invitation";

export const dynamic = "force-dynamic";
// the link is a credential: never pass it on as a referrer
export const metadata: Metadata = { title: "Join a workspace", referrer: "no-referrer" };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <AcceptInvitation token={token} />;
}
