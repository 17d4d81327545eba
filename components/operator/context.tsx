"use client";
/** What every back-office page knows: the environment and the signed-in operator. */
import { createContext, useContext, type ReactNode } from "react";
import type { TEnv } from "@/components/console/api";

export interface OperatorInfo {
  env: TEnv;
  user: { id: string; email: string; name: string | null };
  /** the operator is also a workspace member: the user menu links the console */
  hasWorkspace: boolean;
}

const OperatorContext = createContext<OperatorInfo | null>(null);

export function OperatorContextProvider({ value, children }: { value: OperatorInfo; children: ReactNode }) {
  return <OperatorContext.Provider value={value}>{children}</OperatorContext.Provider>;
}

export function useOperator(): OperatorInfo {
  const ctx = useContext(OperatorContext);
  if (!ctx) throw new Error("useOperator needs the back-office shell");
  return ctx;
}
