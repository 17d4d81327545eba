import type { Metadata } from "next";
import { WorkflowEditorRoute } from "@/components/workflow-editor/editor-route";

export const metadata: Metadata = { title: "Workflow editor" };

/** `…/workflows/new?name=…` opens a blank draft that the first Save creates. */
export default async function WorkflowEditorPage({
  params,
  searchParams,
}: {
  params: Promise<{ workflowId: string }>;
  searchParams: Promise<{ name?: string | string[] }>;
}) {
  const { workflowId } = await params;
  const { name } = await searchParams;
  return (
    <WorkflowEditorRoute workflowId={workflowId} initialName={typeof name === "string" ? name : undefined} />
  );
}
