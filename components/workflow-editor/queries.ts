"use client";
/**
 * Query keys, types and reads of the Workflows API as the console uses it (list, one workflow,
 * node-type catalog, templates, the app's activated providers, validation of a draft).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, type TEnv } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import type { z } from "zod";
import type { TWorkflowJson } from "@/lib/apps/serialize";
import type { ZWorkflowValidationJson } from "@/lib/workflows/endpoints";
import type { TNodeField as TNodeFieldJson, TNodeTypeDefinition } from "@/lib/workflows/node-types";
import type { TWorkflowTemplateJson } from "@/lib/workflows/templates";
import type { TDraft } from "./types";

export const workflowKeys = {
  all: (env: TEnv, clientId: string) => ["workflows", env, clientId] as const,
  list: (env: TEnv, clientId: string) => [...workflowKeys.all(env, clientId), "list"] as const,
  detail: (env: TEnv, clientId: string, workflowId: string) =>
    [...workflowKeys.all(env, clientId), "detail", workflowId] as const,
  nodeTypes: (env: TEnv, clientId: string) => [...workflowKeys.all(env, clientId), "node-types"] as const,
  templates: (env: TEnv, clientId: string) => [...workflowKeys.all(env, clientId), "templates"] as const,
  providers: (env: TEnv, clientId: string) => [...workflowKeys.all(env, clientId), "providers"] as const,
  validate: (env: TEnv, clientId: string, body: unknown) =>
    [...workflowKeys.all(env, clientId), "validate", body] as const,
};

/** A workflow as the API returns it (positions and version: contract §1). */
export type TWorkflow = TWorkflowJson;
export type TNodeField = TNodeFieldJson;
export type TNodeTypeDef = TNodeTypeDefinition;
export type TTemplate = TWorkflowTemplateJson;
export type TValidationResult = z.infer<typeof ZWorkflowValidationJson>;
export type TValidationDetail = TValidationResult["details"][number];

export interface TActivatedProvider {
  id: string;
  name: string;
  enabled: boolean;
}

export const workflowsPath = (clientId: string) => `/v1/apps/${encodeURIComponent(clientId)}/workflows`;
export const workflowPath = (clientId: string, workflowId: string) =>
  `${workflowsPath(clientId)}/${encodeURIComponent(workflowId)}`;

export function useWorkflows(clientId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: workflowKeys.list(env, clientId),
    queryFn: ({ signal }) => api<TWorkflow[]>(env, workflowsPath(clientId), { signal }),
  });
}

export function useWorkflow(clientId: string, workflowId: string, enabled = true) {
  const { env } = useConsole();
  return useQuery({
    queryKey: workflowKeys.detail(env, clientId, workflowId),
    queryFn: ({ signal }) => api<TWorkflow>(env, workflowPath(clientId, workflowId), { signal }),
    enabled,
    // the editor holds its own draft; a background refetch must not look like someone else's save
    refetchOnWindowFocus: false,
  });
}

/** The node-type catalog: the palette and the inspector forms are built from it. */
export function useNodeTypes(clientId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: workflowKeys.nodeTypes(env, clientId),
    queryFn: ({ signal }) => api<TNodeTypeDef[]>(env, `${workflowsPath(clientId)}/node-types`, { signal }),
    staleTime: Infinity,
  });
}

export function useTemplates(clientId: string, enabled: boolean) {
  const { env } = useConsole();
  return useQuery({
    queryKey: workflowKeys.templates(env, clientId),
    queryFn: ({ signal }) => api<TTemplate[]>(env, `${workflowsPath(clientId)}/templates`, { signal }),
    enabled,
  });
}

/** The app's activated providers (GET …/providers?include=activation), for verification overrides. */
export function useActivatedProviders(clientId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: workflowKeys.providers(env, clientId),
    queryFn: ({ signal }) =>
      api<{ id: string; name: string; enabled: boolean; status?: string; isActive?: boolean }[]>(
        env,
        `/v1/apps/${encodeURIComponent(clientId)}/providers`,
        { query: { include: "activation" }, signal },
      ),
    select: (list): TActivatedProvider[] =>
      list
        .filter((p) => (p.status ? p.status === "activated" : p.isActive))
        .map((p) => ({ id: p.id, name: p.name, enabled: p.enabled })),
    staleTime: 30_000,
  });
}

/** The body of create/PATCH/validate from a draft. */
export function draftBody(draft: TDraft) {
  return {
    name: draft.name,
    entryNodeId: draft.entryNodeId,
    nodes: draft.nodes,
    positions: draft.positions,
  };
}

/** POST …/workflows/validate of a (debounced) draft; 404 while the endpoint does not exist. */
export function useValidation(clientId: string, draft: TDraft | null) {
  const { env } = useConsole();
  const body = draft ? draftBody(draft) : null;
  return useQuery({
    queryKey: workflowKeys.validate(env, clientId, body),
    queryFn: ({ signal }) =>
      api<TValidationResult>(env, `${workflowsPath(clientId)}/validate`, {
        method: "POST",
        body,
        signal,
      }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
