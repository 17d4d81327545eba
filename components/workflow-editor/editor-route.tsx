"use client";
/**
 * The editor route's client entry: the editor (React Flow, dagre, the forms) is loaded here only,
 * in the browser, so no other console route carries @xyflow/react in its bundle.
 */
import dynamic from "next/dynamic";
import { useCurrentApp } from "@/components/apps/app-frame";
import { Loading } from "@/components/ui/spinner";

const WorkflowEditor = dynamic(() => import("./editor"), {
  ssr: false,
  loading: () => <Loading label="Loading the editor" />,
});

export function WorkflowEditorRoute({
  workflowId,
  initialName,
}: {
  workflowId: string;
  initialName?: string;
}) {
  const { clientId } = useCurrentApp();
  return <WorkflowEditor clientId={clientId} workflowId={workflowId} initialName={initialName} />;
}
