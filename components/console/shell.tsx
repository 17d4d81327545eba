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
  Menu,
  ScrollText,
  Settings,
  ShieldCheck,
  Users,
  X,
} from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";
import { EnvironmentSelect, SectionNav } from "@/components/ui/frame";
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
  const pathname = usePathname();
  // The menu remembers the page it was opened on, so navigating closes it without an effect.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  setApiWorkspace(info.workspace.id);
  const sandbox = info.env === "sandbox";
  return (
    <ConsoleContextProvider value={info}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-gray-200 bg-white">
        {sandbox ? (
          <div
            className="bg-amber-400 px-4 py-1 text-center text-sm font-semibold text-amber-950"
            data-testid="sandbox-banner"
          >
            Sandbox: test data
          </div>
        ) : (
          <div className="bg-gray-900 px-4 py-1 text-center text-sm font-semibold text-white">
            Production: live data
          </div>
        )}
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <button
            type="button"
            className="rounded-md p-1.5 text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-700 lg:hidden"
            aria-expanded={menuOpen}
            aria-controls="console-nav-mobile"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {menuOpen ? <X aria-hidden className="h-5 w-5" /> : <Menu aria-hidden className="h-5 w-5" />}
            <span className="sr-only">Menu</span>
          </button>
          <Link
            href={`/console/${info.env}/dashboard`}
            className="flex min-w-0 items-center gap-2 font-semibold text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            <ScrollText aria-hidden className="h-5 w-5 shrink-0 text-blue-700" />
            <span className="truncate" data-testid="workspace-name">
              {info.workspace.name}
            </span>
          </Link>
          <div className="ml-auto flex items-center gap-3">
            <EnvironmentSelect env={info.env} area="console" fallbackSection="dashboard" />
            <UserMenu />
          </div>
        </div>
        {menuOpen ? (
          <nav
            id="console-nav-mobile"
            aria-label="Console"
            className="border-t border-gray-200 px-2 py-2 lg:hidden"
          >
            <SectionNav items={NAV} base={`/console/${info.env}`} onNavigate={() => setMenuOpen(false)} />
          </nav>
        ) : null}
      </header>
      <div className="flex">
        <nav
          aria-label="Console"
          className="hidden w-56 shrink-0 border-r border-gray-200 bg-white px-2 py-4 lg:block"
        >
          <SectionNav items={NAV} base={`/console/${info.env}`} />
        </nav>
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <div className="mx-auto max-w-6xl space-y-6">{children}</div>
        </main>
      </div>
    </ConsoleContextProvider>
  );
}
