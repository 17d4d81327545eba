// The QR code of the qr flow, as an SVG image; `f` (a frame number) only defeats caches.
import QRCode from "qrcode";
import { getDb } from "@/lib/db/client";
import { HOSTED_HEADERS, textResponse, VERIFICATION_ID } from "@/lib/hosted/headers";
import { phoneUrlFor } from "@/lib/hosted/links";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  if (!VERIFICATION_ID.test(id)) return textResponse(404, "Verification not found");
  const v = await getDb().verification.findUnique({ where: { id }, select: { environment: true } });
  if (!v) return textResponse(404, "Verification not found");
  const frame = new URL(request.url).searchParams.get("f") ?? "0";
  const target = phoneUrlFor(id, v.environment, "qr", /^\d{1,12}$/.test(frame) ? frame : "0");
  const svg = await QRCode.toString(target, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return new Response(svg, { headers: { ...HOSTED_HEADERS, "Content-Type": "image/svg+xml" } });
}
