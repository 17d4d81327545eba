"use client";
/**
 * An app's Providers tab: the whole catalog (in the sandbox too, through `scope=catalog`) with the
 * app's status of each, filtered by name, country, flow type and status (kept in the URL).
 * Activated providers can be switched on and off; the others can be activated, one at a time or
 * several in one submission. Contract providers show whom to contact and, in the sandbox, offer a
 * demo activation. The list refreshes while an activation is under way, so a review or a demo
 * activation shows up by itself. In production a provider without a working connection says so
 * ("Activated — waiting for the operator to connect it"): activation works, sessions are refused.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Puzzle, Zap } from "lucide-react";
import { useMemo, useState } from "react";
import { useCurrentApp } from "@/components/apps/app-frame";
import { api, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { FilterBar, TextFilter, useUrlFilters } from "@/components/console/list-filters";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Checkbox, Select } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/components/verifications/format";
import { ActivationDialog } from "./activation-dialog";
import {
  canSubmit,
  countryName,
  FLOW_LABELS,
  KIND_LABELS,
  LOA_LABELS,
  modelLabel,
  shownStatus,
  STATUS_LABELS,
  STATUS_TONES,
} from "./format";
import { CATALOG_QUERY, catalogPath, providerKeys, type TProviderEntry } from "./queries";
import { QueryError } from "@/components/console/query-error";

const FILTERS = ["q", "country", "flow", "status"] as const;
const SHOWN_COUNTRIES = 6;

function Countries({ codes }: { codes: string[] }) {
  const names = codes.map(countryName).sort((a, b) => a.localeCompare(b));
  if (names.length <= SHOWN_COUNTRIES) return <>{names.join(", ")}</>;
  return (
    <details>
      <summary className="cursor-pointer rounded focus-visible:outline-2 focus-visible:outline-blue-700">
        {names.slice(0, SHOWN_COUNTRIES - 1).join(", ")} and {names.length - SHOWN_COUNTRIES + 1} more
      </summary>
      <p className="mt-1">{names.join(", ")}</p>
    </details>
  );
}

function Timestamps({ p }: { p: TProviderEntry }) {
  const a = p.activation;
  const items = [
    a.requestedAt ? ["Requested", a.requestedAt] : null,
    a.activatedAt ? ["Activated", a.activatedAt] : null,
    a.rejectedAt ? ["Rejected", a.rejectedAt] : null,
  ].filter((x): x is [string, string] => x !== null);
  if (items.length === 0) return null;
  return (
    <ul className="text-xs text-gray-600">
      {items.map(([label, at]) => (
        <li key={label}>
          {label} <time dateTime={at}>{formatDateTime(at)}</time>
        </li>
      ))}
    </ul>
  );
}

function useEnableProvider(clientId: string) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      api<TProviderEntry>(env, `${catalogPath(clientId)}/${encodeURIComponent(id)}`, {
        method: "PATCH",
        body: { enabled },
      }),
    onSuccess: (entry) => {
      queryClient.setQueryData<TProviderEntry[]>(providerKeys.catalog(env, clientId), (all) =>
        all?.map((p) => (p.id === entry.id ? entry : p)),
      );
      void queryClient.invalidateQueries({ queryKey: ["apps", env] });
      toast.show({ message: `${entry.name} ${entry.enabled ? "enabled" : "disabled"}` });
    },
    onError: (error) => toast.show({ message: errorMessage(error), tone: "error" }),
  });
}

function useDemoActivation(clientId: string) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (id: string) =>
      api<TProviderEntry[]>(env, `/v1/apps/${encodeURIComponent(clientId)}/activation`, {
        method: "POST",
        body: { providers: { [id]: {} }, demo: true },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: providerKeys.all(env, clientId) }),
    onError: (error) => toast.show({ message: errorMessage(error), tone: "error" }),
  });
}

function ProviderCard({
  p,
  selected,
  onSelect,
  onActivate,
}: {
  p: TProviderEntry;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onActivate: () => void;
}) {
  const app = useCurrentApp();
  const { env, permissions } = useConsole();
  const enable = useEnableProvider(app.clientId);
  const demo = useDemoActivation(app.clientId);
  // the switch moves at once and follows the server's answer (a refusal puts it back)
  const [enabledShown, setEnabledShown] = useState(p.enabled);
  const [serverEnabled, setServerEnabled] = useState(p.enabled);
  if (serverEnabled !== p.enabled) {
    setServerEnabled(p.enabled);
    setEnabledShown(p.enabled);
  }
  const status = shownStatus(p);
  const contract = p.activationKind === "contract";
  const support = p.activation.requirements.find((r) => r.type === "info");
  return (
    <li
      className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
      data-testid={`provider-${p.id}`}
      aria-labelledby={`provider-${p.id}-name`}
    >
      <div className="flex items-start gap-3">
        {/* eslint-disable-next-line @next/next/no-img-element -- a static catalog logo */}
        <img src={p.logoUrl} alt="" className="h-10 w-10 shrink-0 object-contain" />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={`provider-${p.id}-name`} className="font-semibold">
              {p.name}
            </h2>
            <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>
          </div>
          <p className="text-sm text-gray-700">{p.description}</p>
        </div>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-gray-600">Countries</dt>
        <dd className="min-w-0">
          <Countries codes={p.countries} />
        </dd>
        <dt className="font-medium text-gray-600">Flows</dt>
        <dd>{p.flowTypes.map((f) => FLOW_LABELS[f] ?? f).join(", ")}</dd>
        <dt className="font-medium text-gray-600">Assurance</dt>
        <dd>{p.loa.map((l) => LOA_LABELS[l] ?? l).join(", ")}</dd>
        <dt className="font-medium text-gray-600">Model</dt>
        <dd>{modelLabel(p)}</dd>
        <dt className="font-medium text-gray-600">Activation</dt>
        <dd>{KIND_LABELS[p.activationKind]}</dd>
      </dl>
      {p.status === "rejected" && p.activation.rejectionReason ? (
        <p className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900">
          <span className="font-semibold">Reason: </span>
          {p.activation.rejectionReason}
        </p>
      ) : null}
      {p.needAction ? (
        <p className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900">
          Its stored configuration no longer meets the provider&apos;s requirements; sessions with it may
          fail. Contact support to update it.
        </p>
      ) : null}
      {p.available ? null : (
        <p
          className="rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900"
          data-testid={`provider-${p.id}-unavailable`}
        >
          {p.status === "activated"
            ? "Activated — waiting for the operator to connect it"
            : "Not connected in this deployment yet: you can activate it now"}
          {p.unavailableReason === "not_connected" ? "" : ` (its connection is ${p.unavailableReason})`}.
          Sessions with it are refused until then.
        </p>
      )}
      {p.status === "activation_requested" ? (
        <p className="text-sm text-gray-700">Waiting for our review; this page updates when it moves.</p>
      ) : p.status === "activation_processing" ? (
        <p className="text-sm text-gray-700">Being reviewed now.</p>
      ) : null}
      {contract && p.status === "not_activated" && support ? (
        <p className="text-sm text-gray-700">
          Activated once a contract with the provider is signed. Contact{" "}
          <span className="font-semibold break-words">{support.value}</span>; we record the activation and it
          appears here.
        </p>
      ) : null}
      <Timestamps p={p} />
      {permissions.write ? (
        <div className="mt-auto flex flex-wrap items-center gap-3 border-t border-gray-100 pt-3">
          {p.status === "activated" ? (
            <Checkbox
              label="Enabled"
              aria-label={`${p.name} enabled`}
              description="Offered to end-users of this app."
              checked={enabledShown}
              disabled={enable.isPending}
              onChange={(e) => {
                setEnabledShown(e.target.checked);
                enable.mutate(
                  { id: p.id, enabled: e.target.checked },
                  { onError: () => setEnabledShown(p.enabled) },
                );
              }}
            />
          ) : null}
          {canSubmit(p) && !contract ? (
            <>
              <Button size="sm" onClick={onActivate} icon={<Zap aria-hidden className="h-4 w-4" />}>
                {p.status === "rejected"
                  ? "Resubmit"
                  : p.activationKind === "direct"
                    ? "Activate"
                    : "Fill in form"}
                <span className="sr-only"> {p.name}</span>
              </Button>
              <Checkbox
                label="Select"
                aria-label={`Select ${p.name} for activation`}
                checked={selected}
                onChange={(e) => onSelect(e.target.checked)}
              />
            </>
          ) : null}
          {contract && canSubmit(p) && env === "sandbox" ? (
            <Button size="sm" variant="secondary" pending={demo.isPending} onClick={() => demo.mutate(p.id)}>
              Demo activation<span className="sr-only"> of {p.name}</span>
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

export function ProvidersTab() {
  const app = useCurrentApp();
  const { env } = useConsole();
  const filters = useUrlFilters(FILTERS);
  const { values } = filters;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [activating, setActivating] = useState<TProviderEntry[]>([]);
  const query = useQuery({
    queryKey: providerKeys.catalog(env, app.clientId),
    queryFn: ({ signal }) =>
      api<TProviderEntry[]>(env, catalogPath(app.clientId), { query: CATALOG_QUERY, signal }),
    // a demo activation settles in about a second; a review takes longer
    refetchInterval: (q) =>
      q.state.data?.some((p) => p.status === "activation_processing")
        ? 1000
        : q.state.data?.some((p) => p.status === "activation_requested")
          ? 10_000
          : false,
  });
  const providers = useMemo(() => query.data ?? [], [query.data]);
  const countries = useMemo(
    () =>
      [...new Set(providers.flatMap((p) => p.countries))]
        .map((code) => ({ code, name: countryName(code) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [providers],
  );
  const shown = providers.filter((p) => {
    const q = values.q.toLowerCase();
    if (q && !p.name.toLowerCase().includes(q) && !p.id.includes(q)) return false;
    if (values.country && !p.countries.includes(values.country)) return false;
    if (values.flow && !p.flowTypes.includes(values.flow as never)) return false;
    if (values.status && shownStatus(p) !== values.status) return false;
    return true;
  });
  const selectable = providers.filter((p) => selected.has(p.id) && canSubmit(p));

  if (query.isPending) return <Loading label="Loading providers" />;
  if (query.isError) return <QueryError error={query.error} onRetry={() => query.refetch()} />;
  const activeCount = providers.filter((p) => p.status === "activated").length;
  return (
    <div className="space-y-4">
      <div>
        <h2 className="text-xl font-semibold">Providers</h2>
        <p className="text-sm text-gray-700">
          {activeCount} of {providers.length} providers activated for this app in the{" "}
          {env === "sandbox" ? "sandbox" : "production environment"}. Enabled ones are offered to its
          end-users.
        </p>
      </div>
      <FilterBar label="Filter providers" active={filters.active} onClear={filters.clear}>
        <TextFilter
          label="Search"
          placeholder="Name"
          value={values.q}
          onCommit={(v) => filters.setFilter("q", v)}
          delay={150}
          autoComplete="off"
        />
        <Select
          label="Country"
          value={values.country}
          onChange={(e) => filters.setFilter("country", e.target.value)}
        >
          <option value="">All countries</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </Select>
        <Select
          label="Flow type"
          value={values.flow}
          onChange={(e) => filters.setFilter("flow", e.target.value)}
        >
          <option value="">All flow types</option>
          {Object.entries(FLOW_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
        <Select
          label="Status"
          value={values.status}
          onChange={(e) => filters.setFilter("status", e.target.value)}
        >
          <option value="">All statuses</option>
          {Object.entries(STATUS_LABELS).map(([s, label]) => (
            <option key={s} value={s}>
              {label}
            </option>
          ))}
        </Select>
      </FilterBar>
      {selectable.length > 0 ? (
        <div
          role="region"
          aria-label="Selected providers"
          className="sticky top-2 z-10 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-blue-300 bg-blue-50 p-3"
        >
          <p className="text-sm font-medium text-blue-950">
            {selectable.length} selected: {selectable.map((p) => p.name).join(", ")}
          </p>
          <div className="flex gap-2">
            <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
            <Button size="sm" onClick={() => setActivating(selectable)}>
              Activate selected
            </Button>
          </div>
        </div>
      ) : null}
      {shown.length === 0 ? (
        <EmptyState icon={<Puzzle className="h-8 w-8" />} title="No provider matches these filters">
          Clear the filters to see the whole catalog.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Providers">
          {shown.map((p) => (
            <ProviderCard
              key={p.id}
              p={p}
              selected={selected.has(p.id)}
              onSelect={(on) =>
                setSelected((s) => {
                  const next = new Set(s);
                  if (on) next.add(p.id);
                  else next.delete(p.id);
                  return next;
                })
              }
              onActivate={() => setActivating([p])}
            />
          ))}
        </ul>
      )}
      {activating.length > 0 ? (
        <ActivationDialog
          key={activating.map((p) => p.id).join(",")}
          clientId={app.clientId}
          providers={activating}
          onClose={() => {
            setActivating([]);
            setSelected(new Set());
          }}
        />
      ) : null}
    </div>
  );
}
