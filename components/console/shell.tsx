"use client";
/**
 * The console frame: workspace name, navigation, the environment switch (part of the URL, so
 * links and reloads keep it), an unmistakable sandbox banner, and the user menu. From 360 px
 * the navigation folds behind a Menu button.
 *
 * Everything below the frame belongs to one workspace: the query keys of the areas do not name
 * it, so the frame is keyed by the workspace and holds its own query client. Switching workspace
 * (the user menu) mounts the pages afresh on an empty cache: nothing the previous workspace
 * loaded can show under the new workspace's name, and every page asks the API at once.
 *
 * Toasts belong to one environment too: the frame holds its own toast region, keyed by the
 * environment, so a sandbox confirmation never follows the user into production (switching
 * remounts it empty). The tab's title is set here for every page (page-title.tsx).
 */
import {
  Activity,
  AppWindow,
  FileClock,
  KeyRound,
  LayoutDashboard,
  ScrollText,
  Settings,
  ShieldCheck,
  Users,
} from "lucide-react";
import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { AreaShell } from "@/components/ui/area-shell";
import { ToastProvider } from "@/components/ui/toast";
import { setApiWorkspace } from "./api";
import { ConsoleContextProvider, type ConsoleInfo } from "./context";
import { ConsolePageTitle } from "./page-title";
import { newConsoleQueryClient } from "./providers";
import { UserMenu } from "./user-menu";

const NAV = [
  { label: "Dashboard", path: "/dashboard", icon: LayoutDashboard },
  { label: "Apps", path: "/apps", icon: AppWindow },
  { label: "Verifications", path: "/verifications", icon: ShieldCheck },
  { label: "API requests", path: "/requests", icon: Activity },
  { label: "API keys", path: "/api-keys", icon: KeyRound },
  { label: "Team", path: "/team", icon: Users },
  { label: "Audit log", path: "/audit-log", icon: FileClock },
  { label: "Settings", path: "/settings", icon: Settings },
] as const;

/**
 * One workspace's queries: a client of its own. Once unmounted, nothing reads it and its provider
 * has stopped its focus and reconnect refetches; it goes with its last garbage-collection timer.
 */
function WorkspaceQueries({ children }: { children: ReactNode }) {
  const [client] = useState(newConsoleQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

export function ConsoleShell({ info, children }: { info: ConsoleInfo; children: ReactNode }) {
  // before any page below renders: their first requests carry this workspace
  setApiWorkspace(info.workspace.id);
  return (
    <WorkspaceQueries key={info.workspace.id}>
      <ConsoleContextProvider value={info}>
        <ConsolePageTitle />
        <ToastProvider key={info.env}>
          <AreaShell
            area="console"
            env={info.env}
            homeSection="dashboard"
            navLabel="Console"
            nav={NAV}
            banner={{ sandbox: "Sandbox: test data", production: "Production: live data" }}
            brand={
              <>
                <ScrollText aria-hidden className="h-5 w-5 shrink-0 text-blue-700" />
                <span className="truncate" data-testid="workspace-name">
                  {info.workspace.name}
                </span>
              </>
            }
            accountMenu={<UserMenu />}
          >
            {children}
          </AreaShell>
        </ToastProvider>
      </ConsoleContextProvider>
    </WorkspaceQueries>
  );
}
