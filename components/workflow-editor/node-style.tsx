/**
 * How each node type looks (icon and colour). Types the console does not know yet (a newer
 * catalog) get a neutral look; what exists always comes from the catalog, never from this map.
 */
import {
  Box,
  Flag,
  GitBranch,
  ListChecks,
  LogIn,
  ScanFace,
  Scale,
  ShieldCheck,
  type LucideIcon,
} from "lucide-react";

export interface TNodeLook {
  icon: LucideIcon;
  /** classes of the icon chip */
  chip: string;
  /** the left accent of the card */
  accent: string;
  /** minimap fill */
  color: string;
}

const LOOKS: Record<string, TNodeLook> = {
  request: { icon: LogIn, chip: "bg-sky-100 text-sky-800", accent: "border-l-sky-600", color: "#0284c7" },
  verification: {
    icon: ScanFace,
    chip: "bg-blue-100 text-blue-800",
    accent: "border-l-blue-700",
    color: "#1d4ed8",
  },
  "check-claim": {
    icon: ListChecks,
    chip: "bg-teal-100 text-teal-800",
    accent: "border-l-teal-600",
    color: "#0d9488",
  },
  "check-min-loa": {
    icon: ShieldCheck,
    chip: "bg-emerald-100 text-emerald-800",
    accent: "border-l-emerald-600",
    color: "#059669",
  },
  evaluate: {
    icon: Scale,
    chip: "bg-amber-100 text-amber-900",
    accent: "border-l-amber-500",
    color: "#d97706",
  },
  if: {
    icon: GitBranch,
    chip: "bg-purple-100 text-purple-800",
    accent: "border-l-purple-600",
    color: "#9333ea",
  },
  response: {
    icon: Flag,
    chip: "bg-slate-200 text-slate-800",
    accent: "border-l-slate-600",
    color: "#475569",
  },
};

const FALLBACK: TNodeLook = {
  icon: Box,
  chip: "bg-gray-100 text-gray-800",
  accent: "border-l-gray-500",
  color: "#6b7280",
};

export function nodeLook(type: string): TNodeLook {
  return LOOKS[type] ?? FALLBACK;
}

export function NodeIcon({ type, className }: { type: string; className?: string }) {
  const look = nodeLook(type);
  const Icon = look.icon;
  return (
    <span
      className={`inline-flex h-7 w-7 shrink-0 items-center justify-center rounded ${look.chip} ${className ?? ""}`}
    >
      <Icon aria-hidden className="h-4 w-4" />
    </span>
  );
}
