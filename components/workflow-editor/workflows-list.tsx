"use client";
/**
 * The Workflows tab: the app's workflows (name, default, last change, size) with create (blank or
 * from a template), duplicate, rename, set as default and delete. Blank opens the editor on an
 * unsaved draft (a request and a response: not yet a valid workflow, so the first Save creates
 * it); a template is created at once (a plain POST of its workflow). Nothing here loads the
 * editor's code.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus, Workflow } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { useCurrentApp } from "@/components/apps/app-frame";
import { appKeys, type TApp } from "@/components/apps/queries";
import { api, ApiRequestError, errorMessage, formErrorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { QueryError } from "@/components/console/query-error";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, SubmitActions } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Form, FormError, Input } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { ActionsTh, Table, Td, Th } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/components/verifications/format";
import {
  useTemplates,
  useWorkflows,
  workflowKeys,
  workflowPath,
  workflowsPath,
  type TTemplate,
  type TWorkflow,
} from "./queries";

type TDialog =
  | { kind: "create" }
  | { kind: "rename"; workflow: TWorkflow }
  | { kind: "delete"; workflow: TWorkflow }
  | null;

export function WorkflowsTab() {
  const app = useCurrentApp();
  const { env, permissions } = useConsole();
  const workflows = useWorkflows(app.clientId);
  const [dialog, setDialog] = useState<TDialog>(null);
  const base = `/console/${env}/apps/${encodeURIComponent(app.clientId)}/workflows`;
  const actions = useRowActions(app);

  return (
    <section className="space-y-4" aria-labelledby="workflows-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="workflows-heading" className="text-lg font-semibold">
            Workflows
          </h2>
          <p className="text-sm text-gray-700">
            What a verification goes through, from the request to the response. The default one runs unless a
            verification names another.
          </p>
        </div>
        {permissions.write ? (
          <Button
            icon={<Plus aria-hidden className="h-4 w-4" />}
            onClick={() => setDialog({ kind: "create" })}
          >
            Create workflow
          </Button>
        ) : null}
      </div>
      <FormError message={actions.error} />
      {workflows.isPending ? (
        <Loading label="Loading the workflows" />
      ) : workflows.isError ? (
        <QueryError error={workflows.error} onRetry={() => void workflows.refetch()} />
      ) : workflows.data.length === 0 ? (
        <EmptyState title="No workflows yet" icon={<Workflow className="h-8 w-8" />}>
          Create one from a template or start from a blank canvas.
        </EmptyState>
      ) : (
        <Table caption="Workflows of the app">
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Nodes</Th>
              <Th>Updated</Th>
              {permissions.write ? <ActionsTh /> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-200">
            {workflows.data.map((w) => {
              const isDefault = app.defaultWorkflowId === w.workflowId;
              return (
                <tr key={w.workflowId} data-testid={`workflow-${w.workflowId}`}>
                  <Td>
                    <div className="flex flex-wrap items-center gap-2">
                      <Link
                        href={`${base}/${encodeURIComponent(w.workflowId)}`}
                        className="font-medium text-blue-800 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
                      >
                        {w.name}
                      </Link>
                      {isDefault ? <Badge tone="blue">Default</Badge> : null}
                    </div>
                    <div className="font-mono text-xs text-gray-600">{w.workflowId}</div>
                  </Td>
                  <Td>{w.nodes.length}</Td>
                  <Td className="whitespace-nowrap">{formatDateTime(w.updatedAt)}</Td>
                  {permissions.write ? (
                    <Td>
                      <div className="flex flex-wrap justify-end gap-1">
                        <Button
                          variant="ghost"
                          size="sm"
                          pending={actions.duplicate.isPending && actions.duplicate.variables === w}
                          onClick={() => actions.duplicate.mutate(w)}
                        >
                          Duplicate<span className="sr-only"> {w.name}</span>
                        </Button>
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setDialog({ kind: "rename", workflow: w })}
                        >
                          Rename<span className="sr-only"> {w.name}</span>
                        </Button>
                        {!isDefault ? (
                          <Button
                            variant="ghost"
                            size="sm"
                            pending={
                              actions.setDefault.isPending && actions.setDefault.variables === w.workflowId
                            }
                            onClick={() => actions.setDefault.mutate(w.workflowId)}
                          >
                            Set as default<span className="sr-only"> ({w.name})</span>
                          </Button>
                        ) : null}
                        <Button
                          variant="ghost"
                          size="sm"
                          className="text-red-800"
                          onClick={() => setDialog({ kind: "delete", workflow: w })}
                        >
                          Delete<span className="sr-only"> {w.name}</span>
                        </Button>
                      </div>
                    </Td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      {dialog?.kind === "create" ? <CreateDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === "rename" ? (
        <RenameDialog workflow={dialog.workflow} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === "delete" ? (
        <DeleteDialog workflow={dialog.workflow} onClose={() => setDialog(null)} />
      ) : null}
    </section>
  );
}

function useRowActions(app: TApp) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  const duplicate = useMutation({
    mutationFn: (w: TWorkflow) =>
      api<TWorkflow>(env, workflowsPath(app.clientId), {
        method: "POST",
        body: {
          name: `${w.name} (copy)`.slice(0, 100),
          entryNodeId: w.entryNodeId,
          nodes: w.nodes,
          ...(w.positions ? { positions: w.positions } : {}),
        },
      }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: workflowKeys.list(env, app.clientId) });
      void queryClient.invalidateQueries({ queryKey: appKeys.detail(env, app.clientId), exact: true });
      toast.show({ message: `Created “${created.name}”` });
    },
  });
  const setDefault = useMutation({
    mutationFn: (workflowId: string) =>
      api<TApp>(env, `/v1/apps/${encodeURIComponent(app.clientId)}/default-workflow`, {
        method: "PUT",
        body: { workflowId },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(appKeys.detail(env, app.clientId), updated);
      toast.show({ message: "Default workflow changed" });
    },
  });
  const failed = duplicate.error ?? setDefault.error;
  return { duplicate, setDefault, error: failed ? errorMessage(failed) : null };
}

function CreateDialog({ onClose }: { onClose: () => void }) {
  const app = useCurrentApp();
  const { env } = useConsole();
  const router = useRouter();
  const queryClient = useQueryClient();
  const templates = useTemplates(app.clientId, true);
  const [name, setName] = useState("");
  const [choice, setChoice] = useState("blank");
  const [nameError, setNameError] = useState<string | undefined>();
  const groupId = useId();
  const base = `/console/${env}/apps/${encodeURIComponent(app.clientId)}`;
  const create = useMutation({
    mutationFn: (t: TTemplate) =>
      api<TWorkflow>(env, workflowsPath(app.clientId), {
        method: "POST",
        body: { ...t.workflow, name: name.trim() || t.workflow.name },
      }),
    onSuccess: (created) => {
      queryClient.setQueryData(workflowKeys.detail(env, app.clientId, created.workflowId), created);
      void queryClient.invalidateQueries({ queryKey: workflowKeys.list(env, app.clientId) });
      void queryClient.invalidateQueries({ queryKey: appKeys.detail(env, app.clientId), exact: true });
      router.push(`${base}/workflows/${encodeURIComponent(created.workflowId)}`);
    },
  });
  const apiError = create.error instanceof ApiRequestError ? create.error : undefined;
  const template = templates.data?.find((t) => t.id === choice);
  return (
    <Dialog open onClose={onClose} title="Create a workflow">
      <Form
        className="space-y-4"
        noValidate
        onSubmit={() => {
          if (choice === "blank") {
            if (!name.trim()) return setNameError("Give the workflow a name.");
            router.push(`${base}/workflows/new?name=${encodeURIComponent(name.trim())}`);
            return;
          }
          if (template) create.mutate(template);
        }}
      >
        <Input
          label="Name"
          value={name}
          maxLength={100}
          required={choice === "blank"}
          description={choice === "blank" ? undefined : "Leave empty to use the template's name."}
          error={nameError ?? apiError?.fieldError("name")}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(undefined);
          }}
        />
        <fieldset className="space-y-2" aria-describedby={`${groupId}-help`}>
          <legend className="text-sm font-medium text-gray-900">Start from</legend>
          <p id={`${groupId}-help`} className="text-sm text-gray-600">
            Templates are created at once; a blank workflow is created when you first save it.
          </p>
          <Choice
            name={groupId}
            value="blank"
            checked={choice === "blank"}
            onChange={setChoice}
            title="Blank"
            description="A request node and a response node; add the rest on the canvas."
          />
          {templates.isPending ? <Loading label="Loading templates" /> : null}
          {templates.isError ? (
            <p className="text-sm text-gray-700">
              Templates are not available: {errorMessage(templates.error)}
            </p>
          ) : null}
          {templates.data?.map((t) => (
            <Choice
              key={t.id}
              name={groupId}
              value={t.id}
              checked={choice === t.id}
              onChange={setChoice}
              title={t.name}
              description={
                <>
                  {t.description}
                  {t.missingProviders.length > 0 ? (
                    <span className="mt-1 block text-amber-900">
                      Activate first: {t.missingProviders.join(", ")} (
                      <Link href={`${base}/providers`} className="underline">
                        Providers
                      </Link>
                      )
                    </span>
                  ) : null}
                </>
              }
            />
          ))}
        </fieldset>
        <SubmitActions
          error={formErrorMessage(create.error, "name")}
          onCancel={onClose}
          submitLabel="Create workflow"
          pending={create.isPending}
        />
      </Form>
    </Dialog>
  );
}

function Choice({
  name,
  value,
  checked,
  onChange,
  title,
  description,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange: (v: string) => void;
  title: string;
  description: React.ReactNode;
}) {
  const id = `${name}-${value}`;
  return (
    <div className="flex items-start gap-2 rounded-md border border-gray-200 p-2">
      <input
        id={id}
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={() => onChange(value)}
        aria-describedby={`${id}-d`}
        className="mt-1 h-4 w-4 accent-blue-700 focus-visible:outline-2 focus-visible:outline-blue-700"
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-gray-900">
          {title}
        </label>
        <div id={`${id}-d`} className="text-sm text-gray-700">
          {description}
        </div>
      </div>
    </div>
  );
}

function RenameDialog({ workflow, onClose }: { workflow: TWorkflow; onClose: () => void }) {
  const app = useCurrentApp();
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(workflow.name);
  const rename = useMutation({
    mutationFn: () =>
      api<TWorkflow>(env, workflowPath(app.clientId, workflow.workflowId), {
        method: "PATCH",
        body: { name },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(workflowKeys.detail(env, app.clientId, updated.workflowId), updated);
      void queryClient.invalidateQueries({ queryKey: workflowKeys.list(env, app.clientId) });
      void queryClient.invalidateQueries({ queryKey: appKeys.detail(env, app.clientId), exact: true });
      toast.show({ message: "Workflow renamed" });
      onClose();
    },
  });
  const apiError = rename.error instanceof ApiRequestError ? rename.error : undefined;
  return (
    <Dialog open onClose={onClose} title={`Rename “${workflow.name}”`}>
      <Form className="space-y-4" onSubmit={() => rename.mutate()}>
        <Input
          label="Name"
          value={name}
          maxLength={100}
          required
          error={apiError?.fieldError("name")}
          onChange={(e) => setName(e.target.value)}
        />
        <SubmitActions
          error={formErrorMessage(rename.error, "name")}
          onCancel={onClose}
          submitLabel="Rename"
          pending={rename.isPending}
        />
      </Form>
    </Dialog>
  );
}

function DeleteDialog({ workflow, onClose }: { workflow: TWorkflow; onClose: () => void }) {
  const app = useCurrentApp();
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: () =>
      api<{ deleted: boolean }>(env, workflowPath(app.clientId, workflow.workflowId), { method: "DELETE" }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: workflowKeys.detail(env, app.clientId, workflow.workflowId) });
      void queryClient.invalidateQueries({ queryKey: workflowKeys.list(env, app.clientId) });
      void queryClient.invalidateQueries({ queryKey: appKeys.detail(env, app.clientId), exact: true });
      toast.show({ message: `Deleted “${workflow.name}”` });
      onClose();
    },
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Delete “${workflow.name}”?`}
      description="Verifications that name this workflow can no longer start. This cannot be undone."
    >
      <FormError message={formErrorMessage(remove.error)} />
      <DialogActions onCancel={onClose}>
        <Button variant="danger" pending={remove.isPending} onClick={() => remove.mutate()}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
