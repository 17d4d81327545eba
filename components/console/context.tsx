"use client";
/**
 * What every console page knows about where it is: the signed-in user, the workspace shown, the
 * member's role and what it allows in this environment.
 */
import { createContext, useContext, type ReactNode } from "react";
import type { TRole } from "@/lib/auth/roles";
import type { TEnv } from "./api";

export type { TRole };

export interface ConsoleInfo {
  env: TEnv;
  user: { id: string; email: string; name: string | null };
  workspace: { id: string; name: string };
  role: TRole;
  permissions: {
    write: boolean;
    credentials: boolean;
    personal_data: boolean;
    team: boolean;
    team_owner: boolean;
  };
  memberships: { workspaceId: string; name: string; role: TRole }[];
  /** the user is an operator too: the user menu links the back-office */
  isOperator?: boolean;
}

const ConsoleContext = createContext<ConsoleInfo | null>(null);

export function ConsoleContextProvider({ value, children }: { value: ConsoleInfo; children: ReactNode }) {
  return <ConsoleContext.Provider value={value}>{children}</ConsoleContext.Provider>;
}

export function useConsole(): ConsoleInfo {
  const ctx = useContext(ConsoleContext);
  if (!ctx) throw new Error("useConsole needs the console shell");
  return ctx;
}

/** `/console/{env}{path}` */
export function useConsoleHref() {
  const { env } = useConsole();
  return (path: string) => `/console/${env}${path}`;
}
