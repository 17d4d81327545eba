"use client";
import type { ReactNode } from "react";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";

/** A settings form's submit button, shown only to members who may write in this environment. */
export function SaveButton({
  pending,
  disabled,
  children = "Save",
}: {
  pending: boolean;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const { permissions } = useConsole();
  if (!permissions.write) return null;
  return (
    <Button type="submit" disabled={disabled} pending={pending}>
      {children}
    </Button>
  );
}
