"use client";
import { useMutation } from "@tanstack/react-query";
import { ChevronDown, LogOut, ShieldCheck, UserRound } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useDismissible } from "@/components/ui/frame";
import { Dialog } from "@/components/ui/dialog";
import { FormError, Input } from "@/components/ui/field";
import { api, ApiRequestError, errorMessage } from "./api";
import { signOut } from "./auth-client";
import { useConsole } from "./context";

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { env } = useConsole();
  const [currentPassword, setCurrent] = useState("");
  const [newPassword, setNew] = useState("");
  const mutation = useMutation({
    mutationFn: () => api(env, "/v1/me/password", { method: "POST", body: { currentPassword, newPassword } }),
    onSuccess: () => signOut("/?passwordChanged=1"),
  });
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Change password"
      description="After the change every session, this one included, signs out; sign in again with the new password."
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate();
        }}
      >
        <Input
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          value={currentPassword}
          onChange={(e) => setCurrent(e.target.value)}
          error={error?.fieldError("currentPassword")}
        />
        <Input
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          description="At least 8 characters."
          value={newPassword}
          onChange={(e) => setNew(e.target.value)}
          error={error?.fieldError("newPassword")}
        />
        <FormError
          message={
            mutation.error && !(error?.fieldError("currentPassword") || error?.fieldError("newPassword"))
              ? errorMessage(mutation.error)
              : null
          }
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" pending={mutation.isPending}>
            Change password
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function UserMenu() {
  const info = useConsole();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const ref = useDismissible<HTMLDivElement>(open, () => setOpen(false));
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="user-menu"
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        <UserRound aria-hidden className="h-4 w-4" />
        <span className="sr-only">Account menu for </span>
        <span className="sr-only max-w-[12rem] truncate sm:not-sr-only">{info.user.email}</span>
        <ChevronDown aria-hidden className="h-4 w-4" />
      </button>
      {open ? (
        <div
          id="user-menu"
          className="absolute right-0 z-40 mt-1 w-72 space-y-3 rounded-md border border-gray-200 bg-white p-3 text-sm shadow-lg"
        >
          <div>
            <div className="font-semibold break-all">{info.user.email}</div>
            <div className="text-gray-700">
              {info.role} of {info.workspace.name}
            </div>
          </div>
          {info.memberships.length > 1 ? (
            <label className="block space-y-1">
              <span className="font-medium">Workspace</span>
              <select
                className="block w-full rounded-md border border-gray-400 px-2 py-1"
                value={info.workspace.id}
                onChange={(e) => {
                  document.cookie = `idv.workspace=${encodeURIComponent(e.target.value)}; path=/; samesite=lax; max-age=31536000`;
                  setOpen(false);
                  router.push(`/console/${info.env}/dashboard`);
                  router.refresh();
                }}
              >
                {info.memberships.map((m) => (
                  <option key={m.workspaceId} value={m.workspaceId}>
                    {m.name} ({m.role})
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <div className="flex flex-col gap-1">
            {info.isOperator ? (
              // another root layout: a full page load
              <a
                href={`/operator/${info.env}/activations`}
                className="flex items-center gap-2 rounded-md px-3 py-2 font-medium text-blue-800 underline hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-700"
              >
                <ShieldCheck aria-hidden className="h-4 w-4" />
                Back-office
              </a>
            ) : null}
            <Button
              variant="ghost"
              className="justify-start"
              onClick={() => {
                setOpen(false);
                setPasswordOpen(true);
              }}
            >
              Change password
            </Button>
            <Button
              variant="ghost"
              className="justify-start"
              icon={<LogOut aria-hidden className="h-4 w-4" />}
              onClick={() => signOut()}
            >
              Sign out
            </Button>
          </div>
        </div>
      ) : null}
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </div>
  );
}
