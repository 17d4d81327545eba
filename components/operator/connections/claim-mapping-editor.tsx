"use client";
/**
 * The claim-mapping editor of a connection: rows "upstream claim name (or JSON pointer) → OIDC
 * claim" (a select of the claims the service knows), and a live preview of what the rows make of
 * the upstream's raw claims of the last test sign-in — computed in the browser with the adapter's
 * own function (lib/providers/claim-mapping.ts), nothing sent anywhere.
 */
import { Plus, Trash2 } from "lucide-react";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import { mapSamlAttributes, mapUpstreamClaims, SAML_SUBJECT } from "@/lib/providers/claim-mapping";
import { KNOWN_CLAIMS } from "@/lib/providers/claims";
import { rowsToObject, type TMapRow } from "./settings-model";
import { Claims } from "./test-result";

/** What each protocol's mapping rows mean, and what a sign-in makes of them (the adapters' rules). */
const PROTOCOL = {
  oidc: {
    source: "Upstream claim",
    about:
      "The upstream's claim name (or a JSON pointer such as /address/locality) and the OIDC claim it becomes. A claim no row names is read under its own OIDC name.",
    empty: "No mapping: every claim is read under its OIDC name.",
    preview: (raw: Record<string, unknown>, mapping: Record<string, string>) =>
      mapUpstreamClaims(raw, mapping),
  },
  saml: {
    source: "SAML attribute",
    about:
      "The SAML attribute's Name (for example http://eidas.europa.eu/attributes/naturalperson/FirstName) and the OIDC claim it becomes. Only attributes a row names are read; map one to sub: the person's identifier at the identity provider.",
    empty: "No mapping: no attribute is read (the subject is the assertion's NameID).",
    preview: (raw: Record<string, unknown>, mapping: Record<string, string>) => {
      const { claims, subject } = mapSamlAttributes(raw, mapping);
      return subject ? { [SAML_SUBJECT]: subject, ...claims } : claims;
    },
  },
} as const;

export function ClaimMappingEditor({
  protocol = "oidc",
  label,
  rows,
  onChange,
  error,
  upstreamClaims,
}: {
  /** oidc: claimMapping; saml: attributeMapping (values may be "sub") */
  protocol?: "oidc" | "saml";
  label: string;
  rows: TMapRow[];
  onChange: (rows: TMapRow[]) => void;
  error?: string;
  /** the raw claims of the last test sign-in (null: none yet) */
  upstreamClaims: Record<string, unknown> | null;
}) {
  const id = useId();
  const update = (i: number, row: Partial<TMapRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...row } : r)));
  const rules = PROTOCOL[protocol];
  const preview = upstreamClaims
    ? rules.preview(upstreamClaims, rowsToObject(rows) as Record<string, string>)
    : null;
  return (
    <fieldset className="space-y-3 rounded-md border border-gray-200 p-3" aria-describedby={`${id}-about`}>
      <legend className="px-1 text-sm font-medium text-gray-900">{label}</legend>
      <p id={`${id}-about`} className="text-sm text-gray-600">
        {rules.about}
      </p>
      {rows.length ? (
        <ul className="space-y-3" aria-label={`${label} rows`}>
          {rows.map((row, i) => (
            <li key={i} className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <Input
                label={`${rules.source} ${i + 1}`}
                fieldClassName="min-w-0 flex-1"
                value={row.key}
                onChange={(e) => update(i, { key: e.target.value })}
                spellCheck={false}
                autoComplete="off"
                autoCapitalize="none"
              />
              <Select
                label={`OIDC claim ${i + 1}`}
                fieldClassName="min-w-0 flex-1"
                value={row.value}
                onChange={(e) => update(i, { value: e.target.value })}
              >
                <option value="">Choose…</option>
                {protocol === "saml" ? (
                  <option value={SAML_SUBJECT}>sub (the person&apos;s identifier)</option>
                ) : null}
                {KNOWN_CLAIMS.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </Select>
              <Button
                variant="ghost"
                size="sm"
                className="self-start sm:mb-1 sm:self-auto"
                aria-label={`Remove mapping ${i + 1}`}
                icon={<Trash2 aria-hidden className="h-4 w-4" />}
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-gray-700">{rules.empty}</p>
      )}
      <Button
        variant="secondary"
        size="sm"
        icon={<Plus aria-hidden className="h-4 w-4" />}
        onClick={() => onChange([...rows, { key: "", value: "" }])}
      >
        Add mapping
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <section
        aria-label="Mapping preview"
        className="space-y-2 rounded-md bg-gray-50 p-3"
        aria-live="polite"
      >
        <h3 className="text-sm font-semibold text-gray-900">Preview on the last test sign-in</h3>
        {upstreamClaims && preview ? (
          <div className="grid gap-4 md:grid-cols-2">
            <Claims level={4} label="Upstream claims" claims={upstreamClaims} testId="preview-upstream" />
            <Claims level={4} label="Mapped claims" claims={preview} testId="preview-mapped" />
          </div>
        ) : (
          <p className="text-sm text-gray-700">
            Run a test sign-in: its upstream claims show here, mapped by these rows as you edit them.
          </p>
        )}
      </section>
    </fieldset>
  );
}
