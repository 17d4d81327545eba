"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AppWindow, Plus, Search } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { api, formErrorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { pageFetcher, usePagedList } from "@/components/console/paged-list";
import type { TPage } from "@/lib/http/pagination";
import { Button } from "@/components/ui/button";
import { Dialog, SubmitActions } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Form, Input } from "@/components/ui/field";
import { useFieldErrors } from "@/components/ui/field-errors";
import { Loading } from "@/components/ui/spinner";
import { PagedTable, Td, Th } from "@/components/ui/table";
import { appKeys, type TApp } from "./queries";
import { SecretOnce } from "./secret-once";
import { QueryError } from "@/components/console/query-error";

const LIMIT = 20;

function CreateAppDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const mutation = useMutation({
    mutationFn: () =>
      api<TApp & { clientSecret: string }>(env, "/v1/apps", { method: "POST", body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.all(env) }),
  });
  const close = () => {
    mutation.reset();
    setName("");
    onClose();
  };
  const created = mutation.data;
  const fieldErrors = useFieldErrors(mutation.error);
  return (
    <Dialog open={open} onClose={close} title={created ? `${created.name} is ready` : "Create app"}>
      {created ? (
        <div className="space-y-4">
          <CopyFieldBlock label="Client ID" value={created.clientId} />
          <SecretOnce
            label="Client secret"
            value={created.clientSecret}
            explanation="Your server sends it with the client ID (HTTP Basic) to create and read verifications; if it is lost, rotate it on the app's page."
          />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Done
            </Button>
            <Link
              href={`/console/${env}/apps/${created.clientId}`}
              className="inline-flex items-center rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
            >
              Open app
            </Link>
          </div>
        </div>
      ) : (
        <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
          <Input
            label="App name"
            required
            maxLength={100}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              fieldErrors.changed("name");
            }}
            error={fieldErrors.message("name", { label: "App name" })}
            description="Shown to end-users on the hosted verification pages."
          />
          <SubmitActions
            error={formErrorMessage(mutation.error, "name")}
            onCancel={close}
            submitLabel="Create app"
            pending={mutation.isPending}
          />
        </Form>
      )}
    </Dialog>
  );
}

function CopyFieldBlock({ label, value }: { label: string; value: string }) {
  return (
    <div className="space-y-1">
      <div className="text-sm font-medium">{label}</div>
      <code className="block rounded-md border border-gray-300 bg-gray-50 px-3 py-2 font-mono text-sm break-all">
        {value}
      </code>
    </div>
  );
}

export function AppsList() {
  const { env, permissions } = useConsole();
  const [searchInput, setSearchInput] = useState("");
  const [search, setSearch] = useState("");
  const [creating, setCreating] = useState(false);
  const { query, setOffset, paging } = usePagedList({
    limit: LIMIT,
    queryKey: (page) => appKeys.list(env, { search, ...page }),
    queryFn: pageFetcher<TPage<TApp>>(env, "/v1/apps", { search: search || undefined }),
  });
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(searchInput.trim());
      setOffset(0);
    }, 250);
    return () => clearTimeout(t);
  }, [searchInput, setOffset]);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Apps</h1>
          <p className="text-sm text-gray-700">
            Each app has its own credentials, redirect URIs, providers and workflows.
          </p>
        </div>
        {permissions.write ? (
          <Button icon={<Plus aria-hidden className="h-4 w-4" />} onClick={() => setCreating(true)}>
            Create app
          </Button>
        ) : null}
      </div>
      <div className="relative max-w-sm">
        <Search aria-hidden className="pointer-events-none absolute top-9 left-3 h-4 w-4 text-gray-500" />
        <Input
          label="Search apps"
          type="search"
          placeholder="Name or client ID"
          className="pl-9"
          value={searchInput}
          onChange={(e) => setSearchInput(e.target.value)}
        />
      </div>
      {query.isPending ? (
        <Loading label="Loading apps" />
      ) : query.isError ? (
        <QueryError error={query.error} onRetry={() => query.refetch()} />
      ) : query.data.total === 0 && !search ? (
        <EmptyState
          icon={<AppWindow className="h-8 w-8" />}
          title="No apps yet"
          action={
            permissions.write ? <Button onClick={() => setCreating(true)}>Create app</Button> : undefined
          }
        >
          An app holds the credentials your server uses to start verifications, and the settings of its
          sign-in.
        </EmptyState>
      ) : (
        <PagedTable
          caption="Apps"
          head={
            <>
              <Th>Name</Th>
              <Th>Client ID</Th>
              <Th>Providers</Th>
              <Th>Created</Th>
            </>
          }
          page={query.data}
          row={(app) => (
            <tr key={app.clientId}>
              <Td>
                <Link
                  href={`/console/${env}/apps/${app.clientId}`}
                  className="font-semibold text-blue-800 underline"
                >
                  {app.name}
                </Link>
              </Td>
              <Td>
                <code className="font-mono text-xs">{app.clientId}</code>
              </Td>
              <Td>{Object.values(app.providers).filter((p) => p.enabled).length}</Td>
              <Td>
                <time dateTime={app.createdAt}>{new Date(app.createdAt).toLocaleString()}</time>
              </Td>
            </tr>
          )}
          lastRow={
            query.data.data.length === 0 ? (
              <tr>
                <Td colSpan={4}>No app matches “{search}”.</Td>
              </tr>
            ) : null
          }
          {...paging}
          pagesLabel="Apps pages"
        />
      )}
      <CreateAppDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
