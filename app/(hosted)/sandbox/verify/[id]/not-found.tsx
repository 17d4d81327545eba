// Unknown sessions and production sessions: the simulator does not exist for them.
import { servedLocale } from "@/app/(hosted)/_lib/page-data";
import { HostedNotFound } from "@/components/verify/hosted-not-found";

export default async function SimulatorNotFound() {
  return <HostedNotFound locale={await servedLocale(null)} />;
}
