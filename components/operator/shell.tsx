"use client";
/**
 * The back-office frame: what it is (never mistaken for the console), navigation, the
 * environment switch (part of the URL, like the console's), and the user menu with the way back
 * to the console for operators who are also workspace members. From 360 px the navigation folds
 * behind a Menu button.
 */
import { ChevronDown, FileSignature, Inbox, LogOut, Menu, ShieldCheck, UserRound, X } from "lucide-react";
// the overview pages' icons (kept on their own line beside the other sections')
import { Building2, ScrollText } from "lucide-react";
// the production-test and custom-domain pages' icons
import { FlaskConical, Globe } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";
import { setApiWorkspace } from "@/components/console/api";
import { signOut } from "@/components/console/auth-client";
import { Button } from "@/components/ui/button";
import { EnvironmentSelect, SectionNav, useDismissible } from "@/components/ui/frame";
import { OperatorContextProvider, useOperator, type OperatorInfo } from "./context";

// only pages that exist; later sections of the back-office add themselves here
const NAV = [
  { label: "Activations", path: "/activations", icon: Inbox },
  { label: "Contracts", path: "/contracts", icon: FileSignature },
  { label: "Production tests", path: "/production-tests", icon: FlaskConical },
  { label: "Custom domains", path: "/custom-domains", icon: Globe },
  { label: "Workspaces", path: "/workspaces", icon: Building2 },
  { label: "Audit log", path: "/audit-log", icon: ScrollText },
] as const;

function OperatorUserMenu() {
  const info = useOperator();
  const [open, setOpen] = useState(false);
  const ref = useDismissible<HTMLDivElement>(open, () => setOpen(false));
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="operator-user-menu"
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-white hover:bg-gray-800 focus-visible:outline-2 focus-visible:outline-white"
      >
        <UserRound aria-hidden className="h-4 w-4" />
        <span className="sr-only">Account menu for </span>
        <span className="sr-only max-w-[12rem] truncate sm:not-sr-only">{info.user.email}</span>
        <ChevronDown aria-hidden className="h-4 w-4" />
      </button>
      {open ? (
        <div
          id="operator-user-menu"
          className="absolute right-0 z-40 mt-1 w-72 space-y-3 rounded-md border border-gray-200 bg-white p-3 text-sm text-gray-900 shadow-lg"
        >
          <div>
            <div className="font-semibold break-all">{info.user.email}</div>
            <div className="text-gray-700">Operator · sessions last 2 hours</div>
          </div>
          <div className="flex flex-col gap-1">
            {info.hasWorkspace ? (
              // another root layout: a full page load
              <a
                href={`/console/${info.env}/dashboard`}
                className="flex items-center gap-2 rounded-md px-3 py-2 font-medium text-blue-800 underline hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-700"
              >
                <ShieldCheck aria-hidden className="h-4 w-4" />
                Console
              </a>
            ) : null}
            <Button
              variant="ghost"
              className="justify-start"
              icon={<LogOut aria-hidden className="h-4 w-4" />}
              onClick={() => signOut()}
            >
              Sign out
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

export function OperatorShell({ info, children }: { info: OperatorInfo; children: ReactNode }) {
  const pathname = usePathname();
  // the menu remembers the page it was opened on, so navigating closes it without an effect
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  // operator endpoints are not scoped to a workspace
  setApiWorkspace(undefined);
  return (
    <OperatorContextProvider value={info}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="bg-gray-900 text-white">
        {info.env === "sandbox" ? (
          <div
            className="bg-amber-400 px-4 py-1 text-center text-sm font-semibold text-amber-950"
            data-testid="sandbox-banner"
          >
            Sandbox tickets
          </div>
        ) : (
          <div className="bg-red-800 px-4 py-1 text-center text-sm font-semibold text-white">
            Production: live customers
          </div>
        )}
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <button
            type="button"
            className="rounded-md p-1.5 text-white hover:bg-gray-800 focus-visible:outline-2 focus-visible:outline-white lg:hidden"
            aria-expanded={menuOpen}
            aria-controls="operator-nav-mobile"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {menuOpen ? <X aria-hidden className="h-5 w-5" /> : <Menu aria-hidden className="h-5 w-5" />}
            <span className="sr-only">Menu</span>
          </button>
          <Link
            href={`/operator/${info.env}/activations`}
            className="flex min-w-0 items-center gap-2 font-semibold focus-visible:outline-2 focus-visible:outline-white"
          >
            <ShieldCheck aria-hidden className="h-5 w-5 shrink-0 text-amber-300" />
            <span className="truncate">Back-office</span>
          </Link>
          <div className="ml-auto flex items-center gap-3">
            <EnvironmentSelect env={info.env} area="operator" fallbackSection="activations" dark />
            <OperatorUserMenu />
          </div>
        </div>
        {menuOpen ? (
          <nav
            id="operator-nav-mobile"
            aria-label="Back-office"
            className="border-t border-gray-700 bg-white px-2 py-2 lg:hidden"
          >
            <SectionNav items={NAV} base={`/operator/${info.env}`} onNavigate={() => setMenuOpen(false)} />
          </nav>
        ) : null}
      </header>
      <div className="flex">
        <nav
          aria-label="Back-office"
          className="hidden w-56 shrink-0 border-r border-gray-200 bg-white px-2 py-4 lg:block"
        >
          <SectionNav items={NAV} base={`/operator/${info.env}`} />
        </nav>
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <div className="mx-auto max-w-6xl space-y-6">{children}</div>
        </main>
      </div>
    </OperatorContextProvider>
  );
}
