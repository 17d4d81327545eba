"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { AccountMenu } from "@/components/ui/area-shell";
import { Dialog, SubmitActions } from "@/components/ui/dialog";
import { Form, Input } from "@/components/ui/field";
import { api, ApiRequestError, formErrorMessage } from "./api";
import { signOut } from "./auth-client";
import { useConsole } from "./context";
import { SignOutEverywhereButton, SignOutEverywhereDialog } from "./sign-out-everywhere";

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
      <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
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
        <SubmitActions
          error={formErrorMessage(mutation.error, "currentPassword", "newPassword")}
          onCancel={onClose}
          submitLabel="Change password"
          pending={mutation.isPending}
        />
      </Form>
    </Dialog>
  );
}

export function UserMenu() {
  const info = useConsole();
  const router = useRouter();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [everywhereOpen, setEverywhereOpen] = useState(false);
  return (
    <AccountMenu
      id="user-menu"
      email={info.user.email}
      summary={`${info.role} of ${info.workspace.name}`}
      switchTo={
        info.isOperator ? { href: `/operator/${info.env}/activations`, label: "Back-office" } : undefined
      }
      onSignOut={() => signOut()}
      beforeActions={(close) =>
        info.memberships.length > 1 ? (
          <label className="block space-y-1">
            <span className="font-medium">Workspace</span>
            <select
              className="block w-full rounded-md border border-gray-400 px-2 py-1"
              value={info.workspace.id}
              onChange={(e) => {
                document.cookie = `idv.workspace=${encodeURIComponent(e.target.value)}; path=/; samesite=lax; max-age=31536000`;
                close();
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
        ) : null
      }
      actions={(close) => (
        <>
          <Button
            variant="ghost"
            className="justify-start"
            onClick={() => {
              close();
              setPasswordOpen(true);
            }}
          >
            Change password
          </Button>
          <SignOutEverywhereButton
            onClick={() => {
              close();
              setEverywhereOpen(true);
            }}
          />
        </>
      )}
      after={
        <>
          <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
          <SignOutEverywhereDialog
            env={info.env}
            path="/v1/me/sign-out-everywhere"
            open={everywhereOpen}
            onClose={() => setEverywhereOpen(false)}
          />
        </>
      }
    />
  );
}
