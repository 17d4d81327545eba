"use client";
/**
 * The API keys page: the workspace's keys of this environment (revoked ones too), creating one
 * with its secret shown once, and revoking. Members without the `credentials` permission see the
 * list read-only, with the reason.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Plus } from "lucide-react";
import { useId, useState } from "react";
import { SecretOnce, SecretShown, useSecretFocus } from "@/components/apps/secret-once";
import { api, formErrorMessage, type TEnv } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { pageFetcher, usePagedList } from "@/components/console/paged-list";
import type { TPage } from "@/lib/http/pagination";
import { useItemAction } from "@/components/console/item-action";
import { formatDate, formatDateTime } from "@/components/verifications/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, Dialog, SubmitActions } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Form, FormError, Input } from "@/components/ui/field";
import { useFieldErrors } from "@/components/ui/field-errors";
import { Loading } from "@/components/ui/spinner";
import { ActionsTh, PagedTable, Td, Th } from "@/components/ui/table";
import { apiKeyKeys, type TApiKey, type TCreatedApiKey } from "./queries";
import { QueryError } from "@/components/console/query-error";

const LIMIT = 50;

const ENV_LABEL: Record<TEnv, string> = { sandbox: "Sandbox", production: "Production" };
const KEY_PREFIX: Record<TEnv, string> = { sandbox: "sk_workspace_test_", production: "sk_workspace_prod_" };

function CreateKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const nameId = useId();
  const mutation = useMutation({
    mutationFn: () => api<TCreatedApiKey>(env, "/v1/api-keys", { method: "POST", body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all(env) }),
  });
  const secretRef = useSecretFocus({ open, fieldId: nameId, shown: mutation.data });
  const close = () => {
    // the secret leaves memory with the dialog
    mutation.reset();
    setName("");
    onClose();
  };
  const created = mutation.data;
  const fieldErrors = useFieldErrors(mutation.error);
  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? `${created.name} created` : "Create key"}
      description={
        created
          ? undefined
          : `A ${ENV_LABEL[env].toLowerCase()} key (${KEY_PREFIX[env]}…). It acts as an admin of this workspace in ${ENV_LABEL[env].toLowerCase()} only.`
      }
    >
      {created ? (
        <SecretShown ref={secretRef} onDone={close}>
          <SecretOnce
            label="Secret key"
            value={created.key}
            explanation={`Store it in your server's secret configuration; it sends it as "Authorization: Bearer …". If it is lost, create a new key and revoke this one.`}
          />
        </SecretShown>
      ) : (
        <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
          <Input
            id={nameId}
            label="Name"
            required
            maxLength={100}
            autoComplete="off"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              fieldErrors.changed("name");
            }}
            error={fieldErrors.message("name", { label: "Name" })}
            description="Where the key is used, e.g. “Web shop backend”. Only you and your team see it."
          />
          <SubmitActions
            error={formErrorMessage(mutation.error, "name")}
            onCancel={close}
            submitLabel="Create key"
            pending={mutation.isPending}
          />
        </Form>
      )}
    </Dialog>
  );
}

function RevokeKeyDialog({ apiKey, onClose }: { apiKey: TApiKey | null; onClose: () => void }) {
  const { env } = useConsole();
  const { mutation, close } = useItemAction({
    action: (key: TApiKey) =>
      api<{ revoked: true }>(env, `/v1/api-keys/${encodeURIComponent(key.keyId)}`, { method: "DELETE" }),
    refresh: apiKeyKeys.all(env),
    toast: (key) => `${key.name} revoked`,
    onClose,
  });
  return (
    <ConfirmDialog
      subject={apiKey}
      onClose={close}
      title={apiKey ? `Revoke ${apiKey.name}?` : "Revoke key"}
      description={
        <>
          Requests using it fail at once (401). This cannot be undone: a server still using{" "}
          <code className="font-mono text-xs">{apiKey?.prefix}…</code> needs a new key.
        </>
      }
      error={<FormError message={formErrorMessage(mutation.error)} />}
      confirmLabel="Revoke"
      pending={mutation.isPending}
      onConfirm={(item) => mutation.mutate(item)}
    />
  );
}

/** An email that may wrap after its "@" in a narrow column, and nowhere else. */
function Email({ value }: { value: string }) {
  const at = value.lastIndexOf("@");
  if (at < 0) return <>{value}</>;
  return (
    <>
      {value.slice(0, at)}
      <wbr />
      {value.slice(at)}
    </>
  );
}

function noCredentialsReason(env: TEnv, role: string): string {
  if (role === "developer")
    return "Developers create and revoke keys in the sandbox only: ask an owner or admin for a production key.";
  return `Your role (${role}) may not create or revoke API keys. Owners and admins can${
    env === "sandbox" ? ", and developers in the sandbox" : ""
  }.`;
}

export function ApiKeysList() {
  const { env, role, permissions } = useConsole();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<TApiKey | null>(null);
  const { query, paging } = usePagedList({
    limit: LIMIT,
    queryKey: (page) => apiKeyKeys.list(env, page),
    queryFn: pageFetcher<TPage<TApiKey>>(env, "/v1/api-keys"),
  });
  const canManage = permissions.credentials;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="max-w-2xl space-y-1">
          <h1 className="text-2xl font-semibold">API keys</h1>
          <p className="text-sm text-gray-700">
            Your servers use an API key to call the Workspace API (apps, verifications, webhooks), sent as{" "}
            <code className="font-mono text-xs">Authorization: Bearer {KEY_PREFIX[env]}…</code>. Keys belong
            to this environment: these are the{" "}
            <strong className="font-semibold">{ENV_LABEL[env].toLowerCase()}</strong> keys, and they do not
            work in {env === "sandbox" ? "production" : "the sandbox"}.
          </p>
        </div>
        {canManage ? (
          <Button icon={<Plus aria-hidden className="h-4 w-4" />} onClick={() => setCreating(true)}>
            Create key
          </Button>
        ) : null}
      </div>
      {canManage ? null : (
        <p className="rounded-md border border-gray-200 bg-white px-3 py-2 text-sm text-gray-700">
          {noCredentialsReason(env, role)}
        </p>
      )}
      {query.isPending ? (
        <Loading label="Loading API keys" />
      ) : query.isError ? (
        <QueryError error={query.error} onRetry={() => query.refetch()} />
      ) : query.data.total === 0 ? (
        <EmptyState
          icon={<KeyRound className="h-8 w-8" />}
          title={`No ${ENV_LABEL[env].toLowerCase()} keys yet`}
          action={canManage ? <Button onClick={() => setCreating(true)}>Create key</Button> : undefined}
        >
          Create a key for each server or service that calls the API, so that one can be revoked without
          touching the others.
        </EmptyState>
      ) : (
        <PagedTable
          caption={`${ENV_LABEL[env]} API keys`}
          head={
            <>
              <Th>Name</Th>
              <Th>Key</Th>
              <Th>Created</Th>
              <Th>Last used</Th>
              <Th>Created by</Th>
              <Th>Status</Th>
              {canManage ? <ActionsTh /> : null}
            </>
          }
          page={query.data}
          row={(key) => (
            <tr key={key.keyId}>
              <Td className="min-w-[8rem] font-semibold break-words">{key.name}</Td>
              <Td>
                <code className="font-mono text-xs whitespace-nowrap">{key.prefix}…</code>
              </Td>
              <Td className="whitespace-nowrap">
                <time dateTime={key.createdAt} title={formatDateTime(key.createdAt)}>
                  {formatDate(key.createdAt)}
                </time>
              </Td>
              <Td className="whitespace-nowrap">
                {key.lastUsedAt ? (
                  <time dateTime={key.lastUsedAt}>{formatDateTime(key.lastUsedAt)}</time>
                ) : (
                  "Never"
                )}
              </Td>
              <Td>
                {key.createdBy ? (
                  <Email value={key.createdBy.email} />
                ) : (
                  <span className="text-gray-600">CLI or API</span>
                )}
              </Td>
              <Td>
                {key.revokedAt ? (
                  <div className="space-y-0.5">
                    <Badge tone="red">Revoked</Badge>
                    <time dateTime={key.revokedAt} className="block text-xs whitespace-nowrap text-gray-600">
                      {formatDateTime(key.revokedAt)}
                    </time>
                  </div>
                ) : (
                  <Badge tone="green">Active</Badge>
                )}
              </Td>
              {canManage ? (
                <Td className="text-right">
                  {key.revokedAt ? null : (
                    <Button variant="secondary" size="sm" onClick={() => setRevoking(key)}>
                      Revoke
                    </Button>
                  )}
                </Td>
              ) : null}
            </tr>
          )}
          {...paging}
          pagesLabel="API keys pages"
        />
      )}
      {canManage ? (
        <>
          <CreateKeyDialog open={creating} onClose={() => setCreating(false)} />
          <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
        </>
      ) : null}
    </div>
  );
}
