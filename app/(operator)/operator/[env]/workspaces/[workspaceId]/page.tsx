import type { Metadata } from "next";
import { WorkspaceDetail } from "@/components/operator/workspaces/workspace-detail";

export const metadata: Metadata = { title: "Workspace" };

export default async function WorkspacePage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <WorkspaceDetail workspaceId={workspaceId} />;
}
