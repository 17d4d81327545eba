"use client";
/** Role names and the role picker with each role's description (lib/auth/roles.ts has the rules). */
import { useId } from "react";
import { cn } from "@/components/ui/cn";
import { ROLE_DESCRIPTIONS, ROLES, type TRole } from "@/lib/auth/roles";

export { ROLE_DESCRIPTIONS, ROLES };

export const ROLE_LABEL: Record<TRole, string> = {
  owner: "Owner",
  admin: "Admin",
  developer: "Developer",
  viewer: "Viewer",
};

/** "an owner", "a viewer". */
export function withArticle(role: TRole): string {
  return `${role === "owner" || role === "admin" ? "an" : "a"} ${role}`;
}

/** The roles a member may hand out: the owner role only with `team_owner`. */
export function grantableRoles(teamOwner: boolean): TRole[] {
  return ROLES.filter((r) => teamOwner || r !== "owner");
}

/** Radio buttons, one per role, each described (name and description read with the control). */
export function RolePicker({
  value,
  onChange,
  roles,
  error,
  legend = "Role",
}: {
  value: TRole;
  onChange: (role: TRole) => void;
  roles: readonly TRole[];
  error?: string;
  legend?: string;
}) {
  const id = useId();
  return (
    <fieldset className="space-y-1" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium text-gray-900">{legend}</legend>
      <div className="space-y-2 pt-1">
        {roles.map((role) => (
          <label
            key={role}
            className={cn(
              "flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2",
              value === role ? "border-blue-700 bg-blue-50" : "border-gray-300 bg-white hover:bg-gray-50",
            )}
          >
            <input
              type="radio"
              name={`${id}-role`}
              value={role}
              checked={value === role}
              onChange={() => onChange(role)}
              aria-labelledby={`${id}-${role}-name`}
              aria-describedby={`${id}-${role}-description`}
              className="mt-0.5 h-4 w-4 shrink-0 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
            />
            <span className="min-w-0">
              <span id={`${id}-${role}-name`} className="block text-sm font-semibold text-gray-900">
                {ROLE_LABEL[role]}
              </span>
              <span id={`${id}-${role}-description`} className="block text-sm text-gray-700">
                {ROLE_DESCRIPTIONS[role]}
              </span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** What each role may do, as a compact list (shown beside the members). */
export function RoleGuide() {
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-2">
      {ROLES.map((role) => (
        <div key={role}>
          <dt className="font-semibold text-gray-900">{ROLE_LABEL[role]}</dt>
          <dd className="text-gray-700">{ROLE_DESCRIPTIONS[role]}</dd>
        </div>
      ))}
    </dl>
  );
}
