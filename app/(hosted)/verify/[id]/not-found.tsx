// Unknown or malformed session ids; in the browser's language, as the layout above serves it.
import { servedLocale } from "@/app/(hosted)/_lib/page-data";
import { HostedNotFound } from "@/components/verify/hosted-not-found";

export default async function VerifyNotFound() {
  return <HostedNotFound locale={await servedLocale(null)} />;
}
