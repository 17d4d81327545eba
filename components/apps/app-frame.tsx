"use client";
/**
 * The frame of an app's pages: its name, logo and environment, the tabs (each its own URL), and
 * the loaded app for the tab below (`useCurrentApp`). One query feeds every tab, so switching
 * tabs never reloads the app; a change a tab saves updates that query.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, type ReactNode } from "react";
import { api, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { LinkTabs } from "@/components/ui/tabs";
import { appKeys, type TApp } from "./queries";

/** The app's tabs, in the order of docs/design.md §8; paths below /console/{env}/apps/{clientId}. */
export const APP_TABS = [
  { label: "Overview", path: "" },
  { label: "Providers", path: "/providers" },
  { label: "Workflows", path: "/workflows" },
  { label: "Webhooks", path: "/webhooks" },
  { label: "Domain", path: "/domain" },
  { label: "Production tests", path: "/production-tests" },
] as const;

export function useApp(clientId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: appKeys.detail(env, clientId),
    queryFn: ({ signal }) => api<TApp>(env, `/v1/apps/${encodeURIComponent(clientId)}`, { signal }),
  });
}

/** PATCH /v1/apps/{client_id}; the answer replaces the cached app. */
export function usePatchApp(clientId: string) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Record<string, unknown>) =>
      api<TApp>(env, `/v1/apps/${encodeURIComponent(clientId)}`, { method: "PATCH", body: patch }),
    onSuccess: (app) => {
      queryClient.setQueryData(appKeys.detail(env, clientId), app);
      void queryClient.invalidateQueries({ queryKey: [...appKeys.all(env), "list"] });
    },
  });
}

const CurrentApp = createContext<TApp | null>(null);

/** The app of the page (inside AppFrame, always loaded). */
export function useCurrentApp(): TApp {
  const app = useContext(CurrentApp);
  if (!app) throw new Error("useCurrentApp needs AppFrame");
  return app;
}

export function AppFrame({ clientId, children }: { clientId: string; children: ReactNode }) {
  const { env } = useConsole();
  const query = useApp(clientId);
  if (query.isPending) return <Loading label="Loading the app" />;
  if (query.isError)
    return (
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">App</h1>
        <FormError message={errorMessage(query.error)} />
        <Button variant="secondary" onClick={() => query.refetch()}>
          Try again
        </Button>
      </div>
    );
  const app = query.data;
  const base = `/console/${env}/apps/${encodeURIComponent(app.clientId)}`;
  return (
    <div className="space-y-6">
      <div className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          {app.logo ? (
            // eslint-disable-next-line @next/next/no-img-element -- a data URL logo
            <img src={app.logo} alt="" className="h-10 w-10 rounded object-contain" />
          ) : null}
          <h1 className="text-2xl font-semibold break-all">{app.name}</h1>
          <Badge tone={env === "sandbox" ? "amber" : "gray"}>
            {env === "sandbox" ? "Sandbox" : "Production"}
          </Badge>
        </div>
        <LinkTabs
          label="App sections"
          items={APP_TABS.map((t) => ({ label: t.label, href: `${base}${t.path}`, prefix: t.path !== "" }))}
        />
      </div>
      <CurrentApp.Provider value={app}>{children}</CurrentApp.Provider>
    </div>
  );
}
