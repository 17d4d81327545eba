// The console shell of one environment: every page below /console/{env}/ is signed in.
import { ConsoleShell } from "@/components/console/shell";
import {
  environmentParam,
  requireConsoleMember,
  type TEnvironmentLayoutProps,
} from "@/components/console/server-session";

export const dynamic = "force-dynamic";

export default async function EnvironmentLayout({ children, params }: TEnvironmentLayoutProps) {
  const env = await environmentParam(params);
  const member = await requireConsoleMember(env, `/console/${env}/dashboard`);
  return <ConsoleShell info={{ env, ...member }}>{children}</ConsoleShell>;
}
