// The simulator's buttons: drive the sandbox session through simulateSession (the test helpers' path).
import { kysely } from "@/lib/db/client";
import { hostedAction } from "@/lib/hosted/action-gate";
import { seeOther, textResponse } from "@/lib/hosted/headers";
import { actInSimulator } from "@/lib/hosted/session";
import { ApiError } from "@/lib/errors";
import { isFlowType } from "@/lib/providers/catalog";
import { memberGuard } from "@/lib/state-machine";
import { SIMULATE_OUTCOMES } from "@/lib/verifications/schema";
import { otherMethodsOf } from "@/lib/http/pipeline";

const isSimulateOutcome = memberGuard(SIMULATE_OUTCOMES);
import { HOSTED, HOSTED_FORM_MAX_BYTES } from "@/lib/http/surfaces";
import { readFormBody } from "@/lib/http/body";

export const POST = hostedAction({ formPost: true }, async (request, id) => {
  const form = await readFormBody(request, { maxBytes: HOSTED_FORM_MAX_BYTES });
  const outcome = String(form.get("outcome") ?? "");
  const identity = String(form.get("identity") ?? "");
  const flowRaw = String(form.get("flow") ?? "");
  const flow = isFlowType(flowRaw) ? flowRaw : "redirect";
  if (!isSimulateOutcome(outcome)) {
    return textResponse(400, `outcome: must be one of ${SIMULATE_OUTCOMES.join(", ")}`);
  }
  try {
    await actInSimulator(kysely(), id, {
      outcome,
      ...(identity ? { identity } : {}),
    });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === "RESOURCE_NOT_FOUND") return textResponse(404, "Verification not found");
    // an unknown identity, or a session that ended meanwhile: the page shows the current state
    if (err.code !== "VERIFICATION_TERMINAL") return textResponse(400, err.message);
  }
  // redirect flow: the provider sends the browser back; the other flows ran on a second screen
  return seeOther(flow === "redirect" ? `/verify/${id}` : `/sandbox/verify/${id}?flow=${flow}&done=1`);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { POST });
