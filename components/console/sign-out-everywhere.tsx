"use client";
/**
 * "Sign out of all sessions" of the account menus (console and back-office): after a
 * confirmation, the API ends every session of the user on the server (this one included), then
 * next-auth clears this browser's cookie and the sign-in page says what happened.
 */
import { useMutation } from "@tanstack/react-query";
import { LogOut } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { api, errorMessage, type TEnv } from "./api";
import { signOut } from "./auth-client";

/** The console's endpoint, or the back-office's (an operator may have no workspace). */
export type TSignOutEverywherePath = "/v1/me/sign-out-everywhere" | "/v1/operator/me/sign-out-everywhere";

export function SignOutEverywhereButton({ onClick }: { onClick: () => void }) {
  return (
    <Button
      variant="ghost"
      className="justify-start"
      icon={<LogOut aria-hidden className="h-4 w-4" />}
      onClick={onClick}
    >
      Sign out of all sessions
    </Button>
  );
}

export function SignOutEverywhereDialog({
  env,
  path,
  open,
  onClose,
}: {
  env: TEnv;
  path: TSignOutEverywherePath;
  open: boolean;
  onClose: () => void;
}) {
  const mutation = useMutation({
    mutationFn: () => api(env, path, { method: "POST" }),
    onSuccess: () => signOut("/?signedOutEverywhere=1"),
  });
  return (
    <ConfirmDialog
      subject={open ? true : null}
      onClose={onClose}
      title="Sign out of all sessions"
      description="Every session of your account ends, on every device and browser, this one included. Sign in again afterwards."
      error={mutation.error ? errorMessage(mutation.error) : null}
      confirmLabel="Sign out everywhere"
      pending={mutation.isPending || mutation.isSuccess}
      onConfirm={() => mutation.mutate()}
    />
  );
}
