"use client";
import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { cn } from "./cn";

/** Copies `value` to the clipboard; says so visibly and to screen readers. */
export function CopyButton({
  value,
  label = "Copy",
  className,
}: {
  value: string;
  label?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // clipboard access refused (insecure origin): select-and-copy fallback
          const area = document.createElement("textarea");
          area.value = value;
          document.body.appendChild(area);
          area.select();
          document.execCommand("copy");
          area.remove();
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
      className={cn(
        "inline-flex shrink-0 items-center gap-1 rounded-md border border-gray-300 bg-white px-2 py-1 text-xs font-semibold text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-700",
        className,
      )}
    >
      {copied ? (
        <Check aria-hidden className="h-3.5 w-3.5 text-green-700" />
      ) : (
        <Copy aria-hidden className="h-3.5 w-3.5" />
      )}
      <span>{copied ? "Copied" : label}</span>
    </button>
  );
}

/** A value shown in monospace with a copy button beside it. */
export function CopyField({ value, label, copyLabel }: { value: string; label: string; copyLabel?: string }) {
  return (
    <div className="space-y-1">
      <div className="text-sm font-medium text-gray-900">{label}</div>
      <div className="flex items-center gap-2 rounded-md border border-gray-300 bg-gray-50 px-3 py-2">
        <code className="min-w-0 flex-1 font-mono text-sm break-all text-gray-900">{value}</code>
        <CopyButton value={value} label={copyLabel ?? "Copy"} />
      </div>
    </div>
  );
}
