"use client";
/**
 * The outline: the workflow as a list, for screen-reader and keyboard users. Nodes in walk order
 * from the entry (breadth-first, link order next/then/else), then the nodes the entry does not
 * reach; each with its outgoing links. Every node and every link target is a button that selects
 * the node.
 */
import { nodeLinks, walkFromEntry } from "@/lib/workflows/graph";
import { cn } from "@/components/ui/cn";
import { NodeIcon } from "./node-style";
import { nodeSummary } from "./summary";
import type { TDraft } from "./types";

export function Outline({
  draft,
  labels,
  selected,
  issuesByNode,
  onSelect,
}: {
  draft: TDraft;
  labels: Record<string, string>;
  selected: readonly string[];
  issuesByNode: Map<string, string[]>;
  onSelect: (id: string) => void;
}) {
  const walked = walkFromEntry(draft.nodes, draft.entryNodeId);
  const reached = new Set(walked.map((n) => n.id));
  const rest = draft.nodes.filter((n) => !reached.has(n.id));
  const known = new Set(draft.nodes.map((n) => n.id));
  const item = (n: TDraft["nodes"][number]) => {
    const issues = issuesByNode.get(n.id) ?? [];
    const label = labels[n.type] ?? n.type;
    const links = nodeLinks(n);
    return (
      <li key={n.id} className="rounded-md border border-gray-200 bg-white p-3">
        <button
          type="button"
          aria-pressed={selected.includes(n.id)}
          onClick={() => onSelect(n.id)}
          className={cn(
            "flex w-full items-center gap-2 rounded text-left focus-visible:outline-2 focus-visible:outline-blue-700",
            selected.includes(n.id) && "font-semibold text-blue-800",
          )}
        >
          <NodeIcon type={n.type} />
          <span className="min-w-0 flex-1">
            <span className="block text-sm">
              {label} <span className="font-mono">{n.id}</span>
              {draft.entryNodeId === n.id ? " (entry)" : ""}
            </span>
            <span className="block truncate text-xs font-normal text-gray-700">{nodeSummary(n)}</span>
          </span>
          {issues.length ? (
            <span className="rounded-full bg-red-700 px-1.5 py-0.5 text-xs font-bold text-white">
              {issues.length}
              <span className="sr-only"> {issues.length === 1 ? "problem" : "problems"}</span>
            </span>
          ) : null}
        </button>
        {issues.length ? (
          <ul className="mt-1 list-disc pl-9 text-xs text-red-800">
            {issues.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        ) : null}
        {links.length ? (
          <ul className="mt-2 space-y-1 pl-9 text-sm" aria-label={`Links of ${n.id}`}>
            {links.map((l) => (
              <li key={l.key}>
                <span className="font-semibold">{l.key}</span> →{" "}
                {known.has(l.target) ? (
                  <button
                    type="button"
                    className="font-mono text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700"
                    onClick={() => onSelect(l.target)}
                  >
                    {l.target}
                  </button>
                ) : (
                  <span className="font-mono text-red-800">{l.target} (missing)</span>
                )}
              </li>
            ))}
          </ul>
        ) : n.type !== "response" ? (
          <p className="mt-2 pl-9 text-sm text-gray-700">No outgoing link.</p>
        ) : null}
      </li>
    );
  };
  return (
    <div className="space-y-4">
      <ol className="space-y-2" aria-label="Workflow outline">
        {walked.map(item)}
      </ol>
      {rest.length ? (
        <section className="space-y-2">
          <h3 className="text-sm font-semibold">Not reached from the entry</h3>
          <ul className="space-y-2" aria-label="Nodes not reached from the entry">
            {rest.map(item)}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
