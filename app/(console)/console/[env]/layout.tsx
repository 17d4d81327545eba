// The console shell of one environment: every page below /console/{env}/ is signed in.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ConsoleShell } from "@/components/console/shell";
import { requireConsoleMember } from "@/components/console/server-session";
import { parseEnvironment } from "@/lib/environments";

export const dynamic = "force-dynamic";

export default async function EnvironmentLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ env: string }>;
}) {
  const env = parseEnvironment((await params).env);
  if (!env) notFound();
  const member = await requireConsoleMember(env, `/console/${env}/dashboard`);
  return <ConsoleShell info={{ env, ...member }}>{children}</ConsoleShell>;
}
