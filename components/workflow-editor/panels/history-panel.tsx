"use client";
/**
 * "History" side panel: the workflow's saved versions (newest first, who and when), a comparison
 * of any two of them or of one with the current draft (nodes added, removed and changed, computed
 * by diff.ts and drawn on the canvas), and restoring a version, which saves its content as the
 * newest version and loads it into the editor.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { History, RotateCcw } from "lucide-react";
import { useId, useState } from "react";
import { api, ApiRequestError } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { QueryError } from "@/components/console/query-error";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Select } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import { Loading } from "@/components/ui/spinner";
import { formatDateTime } from "@/components/verifications/format";
import { workflowKeys, type TWorkflow } from "../queries";
import type { TDraft, TPanelProps } from "../types";
import {
  diffCounts,
  diffHighlight,
  diffWorkflows,
  formatValue,
  isBehaviourSame,
  isIdentical,
  type TNodeChange,
  type TWorkflowContent,
  type TWorkflowDiff,
} from "./diff";
import { ActionError, PanelSection } from "./panel-ui";
import {
  authorLabel,
  useLiveHighlight,
  useVersion,
  useVersions,
  workflowPath,
  type TVersion,
  type TVersionItem,
} from "./queries";

const PAGE = 20;

type TSide = number | "draft";

const sideLabel = (side: TSide) => (side === "draft" ? "Current draft" : `Version ${side}`);

export function HistoryPanel({ clientId, workflowId, draft, onHighlight, onLoadDraft }: TPanelProps) {
  const { permissions } = useConsole();
  const [offset, setOffset] = useState(0);
  const latestPage = useVersions(clientId, workflowId, 0, PAGE);
  const page = useVersions(clientId, workflowId, offset, PAGE);
  const latest = latestPage.data?.data[0]?.version ?? null;

  // null = the default pair: the latest saved version against the draft
  const [picked, setPicked] = useState<{ from: TSide; to: TSide } | null>(null);
  const from: TSide | null = picked?.from ?? latest;
  const to: TSide = picked?.to ?? "draft";

  const fromVersion = useVersion(clientId, workflowId, typeof from === "number" ? from : null);
  const toVersion = useVersion(clientId, workflowId, typeof to === "number" ? to : null);
  const content = (side: TSide | null, q: typeof fromVersion): TWorkflowContent | undefined =>
    side === null ? undefined : side === "draft" ? draft : q.data;
  const before = content(from, fromVersion);
  const after = content(to, toVersion);
  const diff = before && after ? diffWorkflows(before, after) : null;
  useLiveHighlight(onHighlight, diff && !isBehaviourSame(diff) ? diffHighlight(diff) : null);

  const restoreTarget = typeof from === "number" ? from : typeof to === "number" ? to : null;

  if (latestPage.isPending) return <Loading label="Loading the versions" />;
  if (latestPage.isError) return <QueryError error={latestPage.error} onRetry={() => latestPage.refetch()} />;

  const versions = page.data?.data ?? latestPage.data.data;
  const options: TSide[] = ["draft", ...versions.map((v) => v.version)];
  for (const side of [from, to]) if (side !== null && !options.includes(side)) options.push(side);

  return (
    <div className="space-y-5" data-testid="history-panel">
      <PanelSection title="Compare">
        {latest === null ? (
          <p className="text-sm text-gray-700">
            No saved version yet: save the workflow to start its history.
          </p>
        ) : (
          <>
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              <Select
                label="From"
                value={String(from)}
                onChange={(e) => setPicked({ from: parseSide(e.target.value), to })}
              >
                {options.map((s) => (
                  <option key={String(s)} value={String(s)}>
                    {sideLabel(s)}
                  </option>
                ))}
              </Select>
              <Select
                label="To"
                value={String(to)}
                onChange={(e) => setPicked({ from: from ?? latest, to: parseSide(e.target.value) })}
              >
                {options.map((s) => (
                  <option key={String(s)} value={String(s)}>
                    {sideLabel(s)}
                  </option>
                ))}
              </Select>
            </div>
            {fromVersion.isError ? (
              <QueryError error={fromVersion.error} onRetry={() => fromVersion.refetch()} />
            ) : toVersion.isError ? (
              <QueryError error={toVersion.error} onRetry={() => toVersion.refetch()} />
            ) : !diff || from === null ? (
              <Loading label="Loading the versions to compare" />
            ) : (
              <DiffView diff={diff} from={from} to={to} />
            )}
            {permissions.write && restoreTarget !== null ? (
              <RestoreVersion
                clientId={clientId}
                workflowId={workflowId}
                version={restoreTarget}
                latest={latest}
                onRestored={(workflow) => {
                  setPicked(null);
                  onLoadDraft(
                    toDraft(workflow),
                    workflow.version ? { version: workflow.version } : undefined,
                  );
                }}
              />
            ) : null}
          </>
        )}
      </PanelSection>

      <PanelSection title="Versions">
        {page.isError ? (
          <QueryError error={page.error} onRetry={() => page.refetch()} />
        ) : versions.length === 0 ? (
          <p className="text-sm text-gray-700">No versions yet.</p>
        ) : (
          <>
            <ol aria-label="Versions" className="space-y-2">
              {versions.map((v) => (
                <VersionRow
                  key={v.version}
                  item={v}
                  latest={v.version === latest}
                  selected={from === v.version || to === v.version}
                  onCompare={() => setPicked({ from: v.version, to: "draft" })}
                />
              ))}
            </ol>
            <Pagination
              label="Versions pages"
              total={page.data?.total ?? latestPage.data.total}
              limit={PAGE}
              offset={offset}
              onChange={setOffset}
            />
          </>
        )}
      </PanelSection>
    </div>
  );
}

function parseSide(value: string): TSide {
  return value === "draft" ? "draft" : Number(value);
}

function toDraft(workflow: TWorkflow | TVersion): TDraft {
  return {
    name: workflow.name,
    entryNodeId: workflow.entryNodeId,
    nodes: workflow.nodes,
    positions: workflow.positions ?? {},
  };
}

function VersionRow({
  item,
  latest,
  selected,
  onCompare,
}: {
  item: TVersionItem;
  latest: boolean;
  selected: boolean;
  onCompare: () => void;
}) {
  return (
    <li
      data-testid="version-row"
      className={`flex flex-wrap items-start justify-between gap-2 rounded-md border p-2 ${selected ? "border-blue-300 bg-blue-50" : "border-gray-200"}`}
    >
      <div className="min-w-0 space-y-0.5">
        <p className="flex flex-wrap items-center gap-1.5 text-sm font-semibold text-gray-900">
          Version {item.version}
          {latest ? <Badge tone="blue">Latest</Badge> : null}
        </p>
        <p className="text-xs break-words text-gray-700">
          {item.name} · {item.nodeCount} {item.nodeCount === 1 ? "node" : "nodes"}
          {item.restoredFrom ? ` · restored from version ${item.restoredFrom}` : ""}
        </p>
        <p className="text-xs text-gray-600">
          {authorLabel(item.author)} · <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
        </p>
      </div>
      <Button
        variant="ghost"
        size="sm"
        onClick={onCompare}
        aria-label={`Compare version ${item.version} with the draft`}
        icon={<History aria-hidden className="h-4 w-4" />}
      >
        Compare
      </Button>
    </li>
  );
}

const KIND_BADGES: Record<TNodeChange["kind"], { tone: "green" | "red" | "amber"; label: string }> = {
  added: { tone: "green", label: "Added" },
  removed: { tone: "red", label: "Removed" },
  changed: { tone: "amber", label: "Changed" },
};

function DiffView({ diff, from, to }: { diff: TWorkflowDiff; from: TSide; to: TSide }) {
  const counts = diffCounts(diff);
  const title = `${sideLabel(from)} → ${sideLabel(to)}`;
  return (
    <div className="space-y-2" aria-live="polite" data-testid="version-diff">
      <p className="text-sm font-medium text-gray-900">{title}</p>
      {isIdentical(diff) ? (
        <p className="text-sm text-gray-700">No differences.</p>
      ) : (
        <>
          <p className="text-sm text-gray-700" data-testid="diff-counts">
            {counts.added} added, {counts.removed} removed, {counts.changed} changed
            {isBehaviourSame(diff) ? " — the two run the same." : "."}
          </p>
          {diff.name ? (
            <p className="text-sm break-words">
              Name: {diff.name.before} → {diff.name.after}
            </p>
          ) : null}
          {diff.entryNodeId ? (
            <p className="text-sm break-words">
              Entry node: <code className="text-xs">{diff.entryNodeId.before}</code> →{" "}
              <code className="text-xs">{diff.entryNodeId.after}</code>
            </p>
          ) : null}
          {diff.nodes.length > 0 ? (
            <ul aria-label={`Node changes, ${title}`} className="space-y-1.5">
              {diff.nodes.map((change) => (
                <li
                  key={`${change.kind}-${change.nodeId}`}
                  data-testid="diff-node"
                  className="space-y-1 rounded-md border border-gray-200 p-2 text-sm"
                >
                  <div className="flex flex-wrap items-center gap-1.5">
                    <Badge tone={KIND_BADGES[change.kind].tone}>{KIND_BADGES[change.kind].label}</Badge>
                    <code className="text-xs break-all">{change.nodeId}</code>
                    <span className="text-xs text-gray-600">({change.type})</span>
                  </div>
                  {change.kind === "changed" ? (
                    <ul className="space-y-0.5 pl-2 text-xs text-gray-800">
                      {change.changes.map((c) => (
                        <li key={c.field} className="break-words">
                          <code>{c.field}</code>:{" "}
                          <span className="text-red-800">{formatValue(c.before)}</span> →{" "}
                          <span className="text-green-800">{formatValue(c.after)}</span>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
          {diff.moved.length > 0 ? (
            <p className="text-xs break-words text-gray-700">Moved on the canvas: {diff.moved.join(", ")}</p>
          ) : null}
          {counts.removed > 0 && to === "draft" ? (
            <p className="text-xs text-gray-600">
              Removed nodes are listed here; the canvas shows the draft.
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

function RestoreVersion({
  clientId,
  workflowId,
  version,
  latest,
  onRestored,
}: {
  clientId: string;
  workflowId: string;
  version: number;
  latest: number | null;
  onRestored: (workflow: TWorkflow) => void;
}) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const noteId = useId();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const restore = useMutation({
    mutationFn: () =>
      api<TWorkflow>(env, workflowPath(clientId, workflowId, "versions", version, "restore"), {
        method: "POST",
        // the versions list is what the user saw: a save made since then is a conflict (412)
        headers: latest !== null ? { "If-Match": `"${latest}"` } : undefined,
      }),
    onSuccess: async (workflow) => {
      setOpen(false);
      setDone(
        workflow.version
          ? `Version ${version} restored as version ${workflow.version}.`
          : `Version ${version} restored.`,
      );
      onRestored(workflow);
      await queryClient.invalidateQueries({ queryKey: workflowKeys.all(env, clientId) });
    },
    onError: async (error) => {
      if (error instanceof ApiRequestError && error.status === 412)
        await queryClient.invalidateQueries({ queryKey: workflowKeys.all(env, clientId) });
    },
  });
  const next = latest !== null ? latest + 1 : null;
  return (
    <div className="space-y-2 border-t border-gray-100 pt-3">
      <p className="text-sm text-gray-700" id={noteId}>
        Restoring saves version {version}&apos;s content as the newest version
        {next !== null ? ` (version ${next})` : ""}; no version is deleted.
      </p>
      <Button
        variant="secondary"
        aria-describedby={noteId}
        icon={<RotateCcw aria-hidden className="h-4 w-4" />}
        onClick={() => {
          restore.reset();
          setDone(null);
          setOpen(true);
        }}
      >
        Restore this version
      </Button>
      {done ? (
        <p role="status" className="text-sm text-green-800">
          {done}
        </p>
      ) : null}
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Restore version ${version}?`}
        description={
          <>
            Version {version} becomes the newest version{next !== null ? ` (version ${next})` : ""} and is
            loaded into the editor. Changes in the editor that are not saved are lost.
          </>
        }
      >
        <ActionError error={restore.error} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button pending={restore.isPending} onClick={() => restore.mutate()}>
            Restore
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
