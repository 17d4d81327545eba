// The back-office shell of one environment: every page below /operator/{env}/ is for operators
// only; anyone else signed in gets the 403 page instead of the page (checked on the server).
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { OperatorForbidden } from "@/components/operator/forbidden";
import { requireOperator } from "@/components/operator/server-session";
import { OperatorShell } from "@/components/operator/shell";
import { parseEnvironment } from "@/lib/environments";

export const dynamic = "force-dynamic";

export default async function OperatorEnvironmentLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ env: string }>;
}) {
  const env = parseEnvironment((await params).env);
  if (!env) notFound();
  const access = await requireOperator(env, `/operator/${env}/activations`);
  if (access.kind === "forbidden")
    return <OperatorForbidden message={access.message} consoleHref={access.consoleHref} />;
  return <OperatorShell info={access.info}>{children}</OperatorShell>;
}
