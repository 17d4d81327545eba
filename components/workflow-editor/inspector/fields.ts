/**
 * What the inspector's forms share, pure: a field's label from its name, the API's messages
 * without their node prefix, the message for a path inside a node, and the props every field
 * editor takes.
 */
import type { TActivatedProvider, TNodeField, TNodeTypeDef, TValidationDetail } from "../queries";
import type { TDraft } from "../types";

const LABELS: Record<string, string> = {
  minLoa: "Minimum LoA",
  claimChecks: "Claim checks",
  useAppBranding: "Use the app's branding",
  reasonCode: "Reason code",
  minimumAge: "Minimum age",
};

export function fieldLabel(name: string): string {
  if (LABELS[name]) return LABELS[name];
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Drops the `node "x": ` prefix the API puts before each message. */
export function shortMessage(message: string): string {
  return message.replace(/^node (?:"[^"]*"|#\d+): /, "");
}

/** The (short) message of the first detail at a path inside the node, or under it. */
export type TErrorAt = (path: string) => string | undefined;

/** `prefix` is the node's path (`nodes[2]`); the paths asked for are relative to it. */
export function errorsFor(details: readonly TValidationDetail[], prefix: string): TErrorAt {
  return (path) => {
    const full = path ? `${prefix}.${path}` : prefix;
    const hit = details.find(
      (d) => d.path === full || d.path.startsWith(`${full}.`) || d.path.startsWith(`${full}[`),
    );
    return hit ? shortMessage(hit.message) : undefined;
  };
}

/** A condition is an object with a source, an operator and a value. */
export function isCondition(field: TNodeField): boolean {
  const names = new Set((field.fields ?? []).map((f) => f.name));
  return names.has("source") && names.has("op") && names.has("value");
}

/** The label of one item of a list field, lower case: "claim checks" → "claim check". */
export function singular(name: string): string {
  const label = fieldLabel(name).toLowerCase();
  return label.endsWith("s") ? label.slice(0, -1) : label;
}

/** What every field of a node's form may need besides its own value. */
export interface TContext {
  claimNames: string[];
  providers: TActivatedProvider[];
  readOnly: boolean;
}

export interface TFieldProps {
  field: TNodeField;
  path: string;
  value: unknown;
  ctx: TContext;
  errorAt: TErrorAt;
  /** `coalesce`: typing in a text field is one undo step */
  onChange: (value: unknown, coalesce?: string) => void;
}

export interface TInspectorProps {
  draft: TDraft;
  nodeId: string | null;
  catalog: TNodeTypeDef[];
  providers: TActivatedProvider[];
  /** every detail of the current verdict (validation or the last save) */
  details: readonly TValidationDetail[];
  readOnly: boolean;
  onEdit: (draft: TDraft, coalesce?: string) => void;
  onSelectNode: (id: string | null) => void;
}
