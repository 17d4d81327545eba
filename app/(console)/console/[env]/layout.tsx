// The console shell of one environment: every page below /console/{env}/ is signed in. Titles:
// each page names itself, the template adds the environment and the product; the app's and the
// workflow's names join on the client (components/console/page-title.tsx).
import type { Metadata } from "next";
import { ConsoleShell } from "@/components/console/shell";
import {
  environmentParam,
  requireConsoleMember,
  type TEnvironmentLayoutProps,
} from "@/components/console/server-session";
import { consoleTitle, ENV_TITLE } from "@/components/console/titles";
import { parseEnvironment } from "@/lib/environments";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ env: string }> }): Promise<Metadata> {
  const env = parseEnvironment((await params).env);
  if (!env) return {};
  return { title: { default: consoleTitle(ENV_TITLE[env]), template: consoleTitle("%s", ENV_TITLE[env]) } };
}

export default async function EnvironmentLayout({ children, params }: TEnvironmentLayoutProps) {
  const env = await environmentParam(params);
  const member = await requireConsoleMember(env, `/console/${env}/dashboard`);
  return <ConsoleShell info={{ env, ...member }}>{children}</ConsoleShell>;
}
