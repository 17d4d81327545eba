// The back-office shell of one environment: every page below /operator/{env}/ is for operators
// only; anyone else signed in gets the 403 page instead of the page (checked on the server).
import { environmentParam, type TEnvironmentLayoutProps } from "@/components/console/server-session";
import { OperatorForbidden } from "@/components/operator/forbidden";
import { requireOperator } from "@/components/operator/server-session";
import { OperatorShell } from "@/components/operator/shell";

export const dynamic = "force-dynamic";

export default async function OperatorEnvironmentLayout({ children, params }: TEnvironmentLayoutProps) {
  const env = await environmentParam(params);
  const access = await requireOperator(env, `/operator/${env}/activations`);
  if (access.kind === "forbidden")
    return <OperatorForbidden message={access.message} consoleHref={access.consoleHref} />;
  return <OperatorShell info={access.info}>{children}</OperatorShell>;
}
