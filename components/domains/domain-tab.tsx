"use client";
/**
 * An app's Domain tab: a custom domain in three steps — the hosts, the DNS records to create, the
 * check — then the live addresses. Everything goes through /v1/apps/{client_id}/custom-domain.
 * While the domain is pending the service checks it by itself (lib/domains/recheck.ts) and the
 * tab polls, so a domain turns active on screen without anyone pressing Verify. Members who may
 * not write see the state without the buttons.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, Check, Globe, RefreshCw, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { useCurrentApp } from "@/components/apps/app-frame";
import { api, formErrorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy-button";
import { ConfirmActions, Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { FormError } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/components/verifications/format";
import { cn } from "@/components/ui/cn";
import { describeDomain, DOMAIN_STEPS, domainStep, recordsFound } from "./describe";
import { DnsRecordsTable } from "./dns-records-table";
import { HostsForm } from "./hosts-form";
import { domainKeys, domainPath, isBeingChecked, PENDING_POLL_MS, type TCustomDomain } from "./queries";
import { QueryError } from "@/components/console/query-error";

const UNCONFIGURED: TCustomDomain = {
  webDomain: null,
  oidcDomain: null,
  status: "unconfigured",
  requiredAction: "none",
  dnsRecords: [],
  automaticChecks: "off",
};

function Steps({ domain }: { domain: TCustomDomain }) {
  const current = domainStep(domain);
  const found = recordsFound(domain);
  return (
    <ol aria-label="Setup steps" className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
      {DOMAIN_STEPS.map((label, i) => {
        const done = i < current;
        return (
          <li
            key={label}
            aria-current={i === current ? "step" : undefined}
            className={cn(
              "flex items-center gap-2",
              i === current ? "font-semibold text-blue-800" : done ? "text-gray-800" : "text-gray-600",
            )}
          >
            <span
              aria-hidden
              className={cn(
                "flex h-6 w-6 items-center justify-center rounded-full border text-xs",
                done
                  ? "border-green-700 bg-green-700 text-white"
                  : i === current
                    ? "border-blue-700 text-blue-800"
                    : "border-gray-400",
              )}
            >
              {done ? <Check className="h-3.5 w-3.5" /> : i + 1}
            </span>
            {label}
            {i === 1 && i === current && domain.dnsChecks ? (
              <span className="font-normal text-gray-700">
                ({found} of {domain.dnsRecords.length} found)
              </span>
            ) : null}
            {done ? <span className="sr-only">(done)</span> : null}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * What keeps the domain from working that the integrator cannot fix (the API's `warnings`): today
 * an unusable CNAME target, which only the service's operator can change.
 */
function DomainWarnings({ domain }: { domain: TCustomDomain }) {
  if (!domain.warnings?.length) return null;
  return (
    <section
      aria-labelledby="domain-warning-heading"
      className="flex max-w-3xl gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <AlertTriangle aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" />
      <div className="min-w-0 space-y-1">
        <h3 id="domain-warning-heading" className="font-semibold">
          These DNS records cannot work on this installation
        </h3>
        {domain.warnings.map((w) => (
          <p key={w.code} className="break-words">
            {w.message}
          </p>
        ))}
        <p>Pass this on to whoever runs the service; you can still enter the hosts meanwhile.</p>
      </div>
    </section>
  );
}

function RemoveDomain({ clientId, domain }: { clientId: string; domain: TCustomDomain }) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const mutation = useMutation({
    mutationFn: () => api<{ deleted: boolean }>(env, domainPath(clientId), { method: "DELETE" }),
    onSuccess: () => {
      queryClient.setQueryData(domainKeys.detail(env, clientId), UNCONFIGURED);
      toast.show({ message: "Custom domain removed" });
      setOpen(false);
    },
  });
  const close = () => {
    setOpen(false);
    mutation.reset();
  };
  return (
    <>
      <Button
        variant="secondary"
        icon={<Trash2 aria-hidden className="h-4 w-4" />}
        onClick={() => setOpen(true)}
      >
        Remove domain
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title="Remove the custom domain?"
        description={
          <>
            <span className="break-all">{domain.webDomain}</span> and{" "}
            <span className="break-all">{domain.oidcDomain}</span> stop being served at once: hosted-page
            links and OpenID Connect sign-ins on them fail. You can set up a domain again afterwards, with new
            DNS records to create.
          </>
        }
      >
        <ConfirmActions error={<FormError message={formErrorMessage(mutation.error)} />} onCancel={close}>
          <Button variant="danger" pending={mutation.isPending} onClick={() => mutation.mutate()}>
            Remove
          </Button>
        </ConfirmActions>
      </Dialog>
    </>
  );
}

function LiveAddresses({ domain }: { domain: TCustomDomain }) {
  return (
    <Card title="Live addresses">
      <div className="space-y-4">
        <div className="space-y-1">
          <CopyField
            label="Hosted verification pages"
            value={`https://${domain.webDomain}/verify/…`}
            copyLabel="Copy address"
          />
          <p className="text-sm text-gray-700">
            A verification&apos;s page on your domain:{" "}
            <code className="font-mono text-xs break-all">https://{domain.webDomain}/verify/</code> followed
            by its verification ID.
          </p>
        </div>
        <div className="space-y-1">
          <CopyField
            label="OpenID Connect issuer"
            value={`https://${domain.oidcDomain}`}
            copyLabel="Copy issuer"
          />
          <p className="text-sm text-gray-700">
            Configure your OpenID Connect client with this issuer; discovery is at{" "}
            <code className="font-mono text-xs break-all">
              https://{domain.oidcDomain}/.well-known/openid-configuration
            </code>
            .
          </p>
        </div>
      </div>
    </Card>
  );
}

function ConfiguredDomain({ clientId, domain }: { clientId: string; domain: TCustomDomain }) {
  const { env, permissions } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  const verify = useMutation({
    mutationFn: () => api<TCustomDomain>(env, `${domainPath(clientId)}/verify`, { method: "POST" }),
    onSuccess: (checked) => {
      queryClient.setQueryData(domainKeys.detail(env, clientId), checked);
      toast.show({
        message:
          checked.status === "active"
            ? "Verified: the domain is active"
            : `Checked: ${describeDomain(checked).label}`,
      });
    },
    // a refused check can still have changed the state (another app proved the hosts first: 400
    // DOMAIN_IN_USE, the domain is now invalid): show it
    onError: () => queryClient.invalidateQueries({ queryKey: domainKeys.detail(env, clientId) }),
  });
  // a change found by the service's own checks (the tab polls) is announced where it shows
  const [seen, setSeen] = useState(domain.status);
  const [change, setChange] = useState<string | null>(null);
  if (seen !== domain.status) {
    setSeen(domain.status);
    setChange(`Status changed to “${describeDomain(domain).label}”.`);
  }
  const words = describeDomain(domain, formatDateTime);
  const checked = domain.lastCheckedAt;
  return (
    <div className="space-y-6">
      <Card title="Status">
        <div className="space-y-3">
          <div className="flex flex-wrap items-center gap-3">
            <Badge tone={words.tone} className="text-sm">
              {words.label}
            </Badge>
            <span className="text-sm break-all text-gray-700">
              {domain.webDomain} · {domain.oidcDomain}
            </span>
          </div>
          <p role="status" className="text-sm font-medium text-gray-900">
            {change}
          </p>
          <p className="text-sm text-gray-800">{words.summary}</p>
          <p className="text-sm text-gray-800">
            <span className="font-semibold">Next: </span>
            {words.next}
          </p>
          {domain.statusMessage && domain.requiredAction === "retry" && domain.status !== "invalid" ? (
            <p className="text-sm text-gray-700">{domain.statusMessage}</p>
          ) : null}
          {checked ? <p className="text-xs text-gray-600">Last checked {formatDateTime(checked)}.</p> : null}
          {permissions.write ? (
            <div className="flex flex-wrap gap-2">
              <Button
                icon={<RefreshCw aria-hidden className="h-4 w-4" />}
                pending={verify.isPending}
                onClick={() => verify.mutate()}
              >
                Verify
              </Button>
              <RemoveDomain clientId={clientId} domain={domain} />
            </div>
          ) : (
            <p className="text-sm text-gray-600">Your role can see the domain but not verify or remove it.</p>
          )}
          <FormError message={formErrorMessage(verify.error)} />
        </div>
      </Card>
      {domain.status === "active" ? <LiveAddresses domain={domain} /> : null}
    </div>
  );
}

export function DomainTab() {
  const app = useCurrentApp();
  const { env, permissions, role } = useConsole();
  const focusRecords = useRef(false);
  const query = useQuery({
    queryKey: domainKeys.detail(env, app.clientId),
    queryFn: ({ signal }) => api<TCustomDomain>(env, domainPath(app.clientId), { signal }),
    // the service re-checks pending domains by itself: show what it finds
    refetchInterval: (q) => (isBeingChecked(q.state.data) ? PENDING_POLL_MS : false),
  });

  if (query.isPending) return <Loading label="Loading the custom domain" />;
  if (query.isError) return <QueryError error={query.error} onRetry={() => query.refetch()} />;
  const domain = query.data;
  const configured = domain.status !== "unconfigured";

  return (
    <div className="space-y-6">
      <div className="max-w-3xl space-y-2">
        <h2 className="text-xl font-semibold">Custom domain</h2>
        <p className="text-sm text-gray-700">
          Serve this app&apos;s hosted verification pages and its OpenID Connect endpoints on your own domain,
          for example <code className="font-mono text-xs">verify.example.com</code> and{" "}
          <code className="font-mono text-xs">auth.example.com</code>.
        </p>
      </div>
      <Steps domain={domain} />
      <DomainWarnings domain={domain} />
      {!configured ? (
        permissions.write ? (
          <Card title="Enter the hosts">
            <HostsForm
              clientId={app.clientId}
              onConfigured={() => {
                focusRecords.current = true;
              }}
            />
          </Card>
        ) : (
          <EmptyState icon={<Globe className="h-8 w-8" />} title="No custom domain">
            This app uses the service&apos;s own addresses. Your role ({role}) cannot set up a custom domain;
            owners, admins and developers can.
          </EmptyState>
        )
      ) : (
        <>
          <ConfiguredDomain clientId={app.clientId} domain={domain} />
          <section aria-labelledby="domain-records-heading" className="space-y-3">
            <h2
              id="domain-records-heading"
              tabIndex={-1}
              className="text-lg font-semibold focus-visible:outline-2 focus-visible:outline-blue-700"
              ref={(el) => {
                // after Save the form is gone: keyboard focus continues at the records
                if (el && focusRecords.current) {
                  focusRecords.current = false;
                  el.focus();
                }
              }}
            >
              DNS records
            </h2>
            <p className="max-w-3xl text-sm text-gray-700">
              Create these records at your DNS provider. Most providers ask for the name relative to your
              domain (the Name column); some want the full name. Keep them in place while the domain is in
              use.
            </p>
            <DnsRecordsTable records={domain.dnsRecords} checks={domain.dnsChecks} />
          </section>
        </>
      )}
    </div>
  );
}
