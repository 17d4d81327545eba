import type { Metadata } from "next";
import { WorkflowsTab } from "@/components/workflow-editor/workflows-list";

export const metadata: Metadata = { title: "Workflows" };

export default function AppWorkflowsPage() {
  return <WorkflowsTab />;
}
