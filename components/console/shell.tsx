"use client";
/**
 * The console frame: workspace name, navigation, the environment switch (part of the URL, so
 * links and reloads keep it), an unmistakable sandbox banner, and the user menu. From 360 px
 * the navigation folds behind a Menu button.
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
import type { ReactNode } from "react";
import { AreaShell } from "@/components/ui/area-shell";
import { setApiWorkspace } from "./api";
import { ConsoleContextProvider, type ConsoleInfo } from "./context";
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

export function ConsoleShell({ info, children }: { info: ConsoleInfo; children: ReactNode }) {
  setApiWorkspace(info.workspace.id);
  return (
    <ConsoleContextProvider value={info}>
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
    </ConsoleContextProvider>
  );
}
