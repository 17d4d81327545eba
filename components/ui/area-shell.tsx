"use client";
/**
 * The frame the console and the back-office share: skip link, environment banner, header with
 * the Menu button (below 1024 px), home link, environment switch and account menu, the section
 * navigation and the main column. Each area brings its texts, its navigation and its menu; the
 * back-office's header is dark (`dark`), so it is never mistaken for the console.
 */
import { ChevronDown, LogOut, Menu, ShieldCheck, UserRound, X } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";
import { Button } from "./button";
import { EnvironmentSelect, SectionNav, useDismissible, type TNavItem } from "./frame";

type TEnv = "sandbox" | "production";

export function AreaShell({
  area,
  env,
  homeSection,
  navLabel,
  nav,
  banner,
  brand,
  accountMenu,
  dark = false,
  children,
}: {
  /** the first path segment */
  area: "console" | "operator";
  env: TEnv;
  /** where the home link goes and the environment switch falls back to */
  homeSection: string;
  /** the accessible name of both navigation landmarks */
  navLabel: string;
  nav: readonly TNavItem[];
  /** the banner's text in each environment */
  banner: Record<TEnv, string>;
  /** the home link's icon and name */
  brand: ReactNode;
  accountMenu: ReactNode;
  dark?: boolean;
  children: ReactNode;
}) {
  const pathname = usePathname();
  // The menu remembers the page it was opened on, so navigating closes it without an effect.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  const base = `/${area}/${env}`;
  const mobileNavId = `${area}-nav-mobile`;
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className={dark ? "bg-gray-900 text-white" : "border-b border-gray-200 bg-white"}>
        {env === "sandbox" ? (
          <div
            className="bg-amber-400 px-4 py-1 text-center text-sm font-semibold text-amber-950"
            data-testid="sandbox-banner"
          >
            {banner.sandbox}
          </div>
        ) : (
          <div
            className={
              dark
                ? "bg-red-800 px-4 py-1 text-center text-sm font-semibold text-white"
                : "bg-gray-900 px-4 py-1 text-center text-sm font-semibold text-white"
            }
          >
            {banner.production}
          </div>
        )}
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <button
            type="button"
            className={
              dark
                ? "rounded-md p-1.5 text-white hover:bg-gray-800 focus-visible:outline-2 focus-visible:outline-white lg:hidden"
                : "rounded-md p-1.5 text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-700 lg:hidden"
            }
            aria-expanded={menuOpen}
            aria-controls={mobileNavId}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {menuOpen ? <X aria-hidden className="h-5 w-5" /> : <Menu aria-hidden className="h-5 w-5" />}
            <span className="sr-only">Menu</span>
          </button>
          <Link
            href={`${base}/${homeSection}`}
            className={
              dark
                ? "flex min-w-0 items-center gap-2 font-semibold focus-visible:outline-2 focus-visible:outline-white"
                : "flex min-w-0 items-center gap-2 font-semibold text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-700"
            }
          >
            {brand}
          </Link>
          <div className="ml-auto flex items-center gap-3">
            <EnvironmentSelect env={env} area={area} fallbackSection={homeSection} dark={dark} />
            {accountMenu}
          </div>
        </div>
        {menuOpen ? (
          <nav
            id={mobileNavId}
            aria-label={navLabel}
            className={
              dark
                ? "border-t border-gray-700 bg-white px-2 py-2 lg:hidden"
                : "border-t border-gray-200 px-2 py-2 lg:hidden"
            }
          >
            <SectionNav items={nav} base={base} onNavigate={() => setMenuOpen(false)} />
          </nav>
        ) : null}
      </header>
      {/* from 1024 px: the navigation's column fills the height (to the viewport's foot on a
          short page) and the navigation stays in view while the page scrolls */}
      <div className="flex flex-1">
        <div className="hidden w-56 shrink-0 border-r border-gray-200 bg-white lg:block">
          <nav aria-label={navLabel} className="sticky top-0 max-h-screen overflow-y-auto px-2 py-4">
            <SectionNav items={nav} base={base} />
          </nav>
        </div>
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <div className="mx-auto max-w-6xl space-y-6">{children}</div>
        </main>
      </div>
    </div>
  );
}

/**
 * The account button (the signed-in email, named "Account menu for …") and its popup: the email,
 * `summary`, what `beforeActions` renders, then the actions: the link to the other area (a full
 * page load: another root layout), `actions`, and Sign out. Both render props get a way to close
 * the popup. `after` stays mounted beside the popup, e.g. a dialog the menu opens.
 */
export function AccountMenu({
  id,
  email,
  summary,
  switchTo,
  onSignOut,
  beforeActions,
  actions,
  after,
  dark = false,
}: {
  /** the popup's id */
  id: string;
  email: string;
  summary: ReactNode;
  /** the other area, for users who may enter it */
  switchTo?: { href: string; label: string };
  onSignOut: () => void;
  beforeActions?: (close: () => void) => ReactNode;
  actions?: (close: () => void) => ReactNode;
  after?: ReactNode;
  dark?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const ref = useDismissible<HTMLDivElement>(open, close);
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className={
          dark
            ? "flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-white hover:bg-gray-800 focus-visible:outline-2 focus-visible:outline-white"
            : "flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-700"
        }
      >
        <UserRound aria-hidden className="h-4 w-4" />
        <span className="sr-only">Account menu for </span>
        <span className="sr-only max-w-[12rem] truncate sm:not-sr-only">{email}</span>
        <ChevronDown aria-hidden className="h-4 w-4" />
      </button>
      {open ? (
        <div
          id={id}
          className={
            dark
              ? "absolute right-0 z-40 mt-1 w-72 space-y-3 rounded-md border border-gray-200 bg-white p-3 text-sm text-gray-900 shadow-lg"
              : "absolute right-0 z-40 mt-1 w-72 space-y-3 rounded-md border border-gray-200 bg-white p-3 text-sm shadow-lg"
          }
        >
          <div>
            <div className="font-semibold break-all">{email}</div>
            <div className="text-gray-700">{summary}</div>
          </div>
          {beforeActions?.(close)}
          <div className="flex flex-col gap-1">
            {switchTo ? (
              <a
                href={switchTo.href}
                className="flex items-center gap-2 rounded-md px-3 py-2 font-medium text-blue-800 underline hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-700"
              >
                <ShieldCheck aria-hidden className="h-4 w-4" />
                {switchTo.label}
              </a>
            ) : null}
            {actions?.(close)}
            <Button
              variant="ghost"
              className="justify-start"
              icon={<LogOut aria-hidden className="h-4 w-4" />}
              onClick={onSignOut}
            >
              Sign out
            </Button>
          </div>
        </div>
      ) : null}
      {after}
    </div>
  );
}
