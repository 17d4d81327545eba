"use client";
/**
 * What every console page knows about where it is: the signed-in user, the workspace shown, the
 * member's role and what it allows in this environment.
 */
import { createContext, useContext, type ReactNode } from "react";
import type { TRole } from "@/lib/auth/roles";
import type { ConsoleMember } from "@/lib/console/session-member";
import type { TEnv } from "./api";

export type { TRole };

/** The signed-in member (as the server loaded it for the first render) in this environment. */
export type ConsoleInfo = ConsoleMember & { env: TEnv };

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
