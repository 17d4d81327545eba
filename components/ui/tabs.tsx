/**
 * Navigation tabs: each tab is a link to its own URL (reload and share keep the tab), the current
 * one marked with aria-current. For panels that switch in place, use `SegmentedControl`.
 */
"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "./cn";

export interface TabItem {
  label: string;
  href: string;
  /** the tab is current for every path below href, not only href itself */
  prefix?: boolean;
}

export function LinkTabs({ items, label }: { items: TabItem[]; label: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="-mx-1 overflow-x-auto border-b border-gray-200">
      <ul className="flex min-w-max gap-1 px-1">
        {items.map((item) => {
          const current = item.prefix
            ? pathname === item.href || pathname.startsWith(`${item.href}/`)
            : pathname === item.href;
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "inline-block border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700",
                  current
                    ? "border-blue-700 text-blue-800"
                    : "border-transparent text-gray-700 hover:border-gray-300 hover:text-gray-900",
                )}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** A group of toggle buttons choosing one value (e.g. the dashboard period). */
export function SegmentedControl<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className="inline-flex rounded-md border border-gray-300 bg-white p-0.5"
    >
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={o.value === value}
          onClick={() => onChange(o.value)}
          className={cn(
            "rounded px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700",
            o.value === value ? "bg-blue-700 text-white" : "text-gray-800 hover:bg-gray-100",
          )}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
