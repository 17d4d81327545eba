/**
 * /verify/{id}/qr: the QR code of the qr flow as an SVG image, after the hosted action's gate
 * (lib/hosted/action-gate.ts). Its steps: the session (its environment, or the hosted 404), the
 * address the phone opens (lib/hosted/links.ts: the simulator in the sandbox, the start address in
 * production), the image. `f` (a frame number) only defeats caches: any other value is frame 0.
 */
import QRCode from "qrcode";
import { kysely } from "../db/client";
import { readSessionEnvironment } from "../verifications/store/hosted";
import { HOSTED_HEADERS, verificationNotFound } from "./headers";
import { phoneUrlFor } from "./links";

/** The answer to GET /verify/{id}/qr. */
export async function qrImage(request: Request, id: string): Promise<Response> {
  const environment = await readSessionEnvironment(kysely(), id);
  if (!environment) return verificationNotFound();
  const target = phoneUrlFor(id, environment, "qr", qrFrame(new URL(request.url).searchParams.get("f")));
  const svg = await QRCode.toString(target, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return new Response(svg, { headers: { ...HOSTED_HEADERS, "Content-Type": "image/svg+xml" } });
}

/** The frame number of `?f=` (1 to 12 digits), else "0". */
export function qrFrame(raw: string | null): string {
  const frame = raw ?? "0";
  return /^\d{1,12}$/.test(frame) ? frame : "0";
}
