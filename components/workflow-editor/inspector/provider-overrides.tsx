"use client";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/field";
import type { TFieldProps } from "./fields";
import { Group } from "./group";

/**
 * Verification `providers`: opt-out overrides keyed by provider id, offered for the app's
 * activated providers only. Checked = the step may use it (no override, or an existing
 * `{enabled: true}` kept); unchecked = `{enabled: false}`.
 */
export function ProviderOverrides({ field, path, value, ctx, errorAt, onChange }: TFieldProps) {
  const overrides = (value && typeof value === "object" ? value : {}) as Record<
    string,
    { enabled?: boolean }
  >;
  const activated = new Set(ctx.providers.map((p) => p.id));
  const others = Object.keys(overrides).filter((id) => !activated.has(id));
  const set = (id: string, on: boolean) => {
    const next = { ...overrides };
    if (on) {
      if (next[id]?.enabled === false) delete next[id];
    } else next[id] = { enabled: false };
    onChange(Object.keys(next).length ? next : undefined);
  };
  return (
    <Group
      legend="Providers"
      description={`${field.description}. Only the app's activated providers are offered.`}
      error={
        errorAt(path) && !Object.keys(overrides).some((id) => errorAt(`${path}.${id}`))
          ? errorAt(path)
          : undefined
      }
    >
      {ctx.providers.length === 0 ? (
        <p className="text-sm text-gray-700">The app has no activated providers yet.</p>
      ) : null}
      {ctx.providers.map((p) => (
        <Checkbox
          key={p.id}
          label={`${p.name} (${p.id})${p.enabled ? "" : " — disabled for the app"}`}
          checked={overrides[p.id]?.enabled !== false}
          error={errorAt(`${path}.${p.id}`)}
          onChange={(e) => set(p.id, e.target.checked)}
        />
      ))}
      {others.map((id) => (
        <div key={id} className="space-y-1">
          <p className="text-sm text-gray-800">
            <span className="font-mono">{id}</span>: not an activated provider of the app
          </p>
          {errorAt(`${path}.${id}`) ? (
            <p role="alert" className="text-sm font-medium text-red-700">
              {errorAt(`${path}.${id}`)}
            </p>
          ) : null}
          {!ctx.readOnly ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                const next = { ...overrides };
                delete next[id];
                onChange(Object.keys(next).length ? next : undefined);
              }}
            >
              Remove {id}
            </Button>
          ) : null}
        </div>
      ))}
    </Group>
  );
}
