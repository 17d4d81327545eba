// Redirect flow: "Continue to <provider>". Sandbox → its simulator; production → the upstream of
// the provider's connection, through its adapter's sign-in (lib/hosted/start.ts).
import { hostedAction } from "@/lib/hosted/action-gate";
import { startVerification } from "@/lib/hosted/start";
import { otherMethodsOf } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const GET = hostedAction({ formPost: false }, startVerification);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
