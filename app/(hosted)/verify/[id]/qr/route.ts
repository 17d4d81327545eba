// The QR code of the qr flow, as an SVG image (lib/hosted/qr.ts).
import { hostedAction } from "@/lib/hosted/action-gate";
import { qrImage } from "@/lib/hosted/qr";
import { otherMethodsOf } from "@/lib/http/pipeline";
import { HOSTED } from "@/lib/http/surfaces";

export const dynamic = "force-dynamic";

export const GET = hostedAction({ formPost: false }, qrImage);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf(HOSTED, { GET });
