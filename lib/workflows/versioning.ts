/**
 * Pure rules of workflow versions: what counts as a change, how the version is exposed as an
 * entity tag, and when an If-Match precondition holds.
 * Rules:
 * - a workflow's content is name, entryNodeId, nodes and positions; a change of any of them
 *   (compared as JSON, key order ignored) is a new version, anything else is not;
 * - the ETag is the strong tag `"<version>"`; If-Match holds when absent, `*`, or when one of its
 *   listed strong tags is the current version (weak tags never match, RFC 9110 §13.1.1);
 *   otherwise 412 WORKFLOW_VERSION_CONFLICT naming the current version;
 * - when nodes change and positions are not sent, positions of nodes that are gone are dropped.
 */
import { ApiError } from "../errors";
import type { TNodePositions, TWorkflowNode } from "./json";

export const VERSION_AUTHOR_TYPES = ["user", "api_key", "system"] as const;
export type TVersionAuthorType = (typeof VERSION_AUTHOR_TYPES)[number];

export interface TWorkflowContent {
  name: string;
  entryNodeId: string;
  nodes: TWorkflowNode[];
  positions: TNodePositions;
}

export function etagOf(version: number): string {
  return `"${version}"`;
}

/** The strong entity tags listed in an If-Match value, or "*"; weak and malformed ones are skipped. */
export function parseIfMatch(header: string): string[] | "*" {
  const value = header.trim();
  if (value === "*") return "*";
  const tags: string[] = [];
  for (const m of value.matchAll(/(W\/)?"([^"]*)"/g)) if (!m[1]) tags.push(m[2]!);
  return tags;
}

export function ifMatchHolds(header: string | null, currentVersion: number): boolean {
  if (header === null) return true;
  const tags = parseIfMatch(header);
  return tags === "*" || tags.includes(String(currentVersion));
}

/** 412 unless `If-Match` (when sent) names the current version. */
export function assertIfMatch(header: string | null, currentVersion: number, workflowId: string): void {
  if (ifMatchHolds(header, currentVersion)) return;
  const message = `is not the current version; the current version is ${etagOf(currentVersion)}`;
  throw new ApiError(
    "WORKFLOW_VERSION_CONFLICT",
    `Workflow "${workflowId}" has changed: version ${currentVersion} is the current one (If-Match ${header!.trim()}). Load it and apply your change again`,
    { details: [{ path: "If-Match", message }] },
  );
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function sameContent(a: TWorkflowContent, b: TWorkflowContent): boolean {
  return (
    JSON.stringify(canonical([a.name, a.entryNodeId, a.nodes, a.positions])) ===
    JSON.stringify(canonical([b.name, b.entryNodeId, b.nodes, b.positions]))
  );
}

/** Positions of the nodes that are still there. */
export function keepPositionsOf(positions: TNodePositions, nodes: readonly TWorkflowNode[]): TNodePositions {
  const ids = new Set(nodes.map((n) => n.id));
  return Object.fromEntries(Object.entries(positions).filter(([id]) => ids.has(id)));
}
