"use client";
/**
 * Pieces shared by the console's and the back-office's frames: the environment switch (the
 * environment is part of every URL), the section navigation, and the way a popup menu closes
 * (a click outside or Escape).
 */
import type { LucideIcon } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { cn } from "./cn";

type TEnv = "sandbox" | "production";

/**
 * The `Environment` select. Switching keeps the section (`/{area}/{env}/{section}`) and drops
 * record ids, which belong to the other environment.
 */
export function EnvironmentSelect({
  env,
  area,
  fallbackSection,
  dark = false,
}: {
  env: TEnv;
  /** the first path segment: "console" or "operator" */
  area: string;
  fallbackSection: string;
  /** on a dark header */
  dark?: boolean;
}) {
  const router = useRouter();
  const pathname = usePathname();
  return (
    <label
      className={cn("flex items-center gap-2 text-sm font-medium", dark ? "text-gray-100" : "text-gray-800")}
    >
      <span className="hidden sm:inline">Environment</span>
      <select
        aria-label="Environment"
        value={env}
        onChange={(e) => {
          const section = pathname.split("/")[3] ?? fallbackSection;
          router.push(`/${area}/${e.target.value}/${section}`);
        }}
        className={cn(
          "rounded-md border px-2 py-1 text-sm font-semibold focus-visible:outline-2",
          dark ? "focus-visible:outline-white" : "focus-visible:outline-blue-700",
          env === "sandbox"
            ? "border-amber-500 bg-amber-50 text-amber-950"
            : "border-gray-400 bg-white text-gray-900",
        )}
      >
        <option value="sandbox">Sandbox</option>
        <option value="production">Production</option>
      </select>
    </label>
  );
}

export interface TNavItem {
  label: string;
  path: string;
  icon: LucideIcon;
}

/** Links to the sections below `base`; the current one (or an ancestor of it) is marked. */
export function SectionNav({
  items,
  base,
  onNavigate,
}: {
  items: readonly TNavItem[];
  base: string;
  onNavigate?: () => void;
}) {
  const pathname = usePathname();
  return (
    <ul className="space-y-0.5">
      {items.map((item) => {
        const href = `${base}${item.path}`;
        const current = pathname === href || pathname.startsWith(`${href}/`);
        const Icon = item.icon;
        return (
          <li key={item.path}>
            <Link
              href={href}
              onClick={onNavigate}
              aria-current={current ? "page" : undefined}
              className={cn(
                "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700",
                current ? "bg-blue-50 text-blue-800" : "text-gray-800 hover:bg-gray-100",
              )}
            >
              <Icon aria-hidden className="h-4 w-4" />
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** While `open`, a mousedown outside the returned ref's element or Escape calls `close`. */
export function useDismissible<T extends HTMLElement>(open: boolean, close: () => void) {
  const ref = useRef<T>(null);
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) closeRef.current();
    };
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && closeRef.current();
    document.addEventListener("mousedown", onDoc);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDoc);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return ref;
}
