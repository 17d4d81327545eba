// The QR code of the qr flow, as an SVG image; `f` (a frame number) only defeats caches.
import QRCode from "qrcode";
import { getDb } from "@/lib/db/client";
import { hostedAction } from "@/lib/hosted/action-gate";
import { HOSTED_HEADERS, textResponse } from "@/lib/hosted/headers";
import { phoneUrlFor } from "@/lib/hosted/links";
import { otherMethodsOf } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const GET = hostedAction({ formPost: false }, async (request, id) => {
  const v = await getDb().verification.findUnique({ where: { id }, select: { environment: true } });
  if (!v) return textResponse(404, "Verification not found");
  const frame = new URL(request.url).searchParams.get("f") ?? "0";
  const target = phoneUrlFor(id, v.environment, "qr", /^\d{1,12}$/.test(frame) ? frame : "0");
  const svg = await QRCode.toString(target, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return new Response(svg, { headers: { ...HOSTED_HEADERS, "Content-Type": "image/svg+xml" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
