import type { Metadata } from "next";
import { Suspense } from "react";
import { WorkspaceList } from "@/components/operator/workspaces/workspace-list";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Workspaces" };

export default function WorkspacesPage() {
  return (
    <Suspense fallback={<Loading label="Loading workspaces" />}>
      <WorkspaceList />
    </Suspense>
  );
}
