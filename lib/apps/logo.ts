/**
 * App logos: `data:image/<type>;base64,<data>` only. The bytes must really be an image of the
 * declared type (checked by its signature and structure), at most 512 KiB decoded and at most
 * 4096 px on a side. SVG is refused: it can carry script, and we do not serve user SVG.
 */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_MAX_SIDE = 4096;
export const LOGO_TYPES = ["png", "jpeg", "gif", "webp"] as const;

export type LogoCheck =
  | { ok: true; type: (typeof LOGO_TYPES)[number]; width: number; height: number }
  | { ok: false; message: string };

const DATA_URL = /^data:image\/([a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;

function pngSize(b: Buffer): [number, number] | undefined {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length < 33 || !sig.every((v, i) => b[i] === v) || b.toString("latin1", 12, 16) !== "IHDR")
    return undefined;
  if (b.toString("latin1", b.length - 8, b.length - 4) !== "IEND") return undefined;
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

function gifSize(b: Buffer): [number, number] | undefined {
  const head = b.toString("latin1", 0, 6);
  if (b.length < 14 || (head !== "GIF87a" && head !== "GIF89a") || b[b.length - 1] !== 0x3b) return undefined;
  return [b.readUInt16LE(6), b.readUInt16LE(8)];
}

function webpSize(b: Buffer): [number, number] | undefined {
  if (b.length < 30 || b.toString("latin1", 0, 4) !== "RIFF" || b.toString("latin1", 8, 12) !== "WEBP")
    return undefined;
  if (b.readUInt32LE(4) + 8 !== b.length) return undefined;
  const chunk = b.toString("latin1", 12, 16);
  if (chunk === "VP8X") return [1 + b.readUIntLE(24, 3), 1 + b.readUIntLE(27, 3)];
  if (chunk === "VP8 ") return [b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff];
  if (chunk === "VP8L") {
    const bits = b.readUInt32LE(21);
    return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1];
  }
  return undefined;
}

function jpegSize(b: Buffer): [number, number] | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return undefined;
  if (b[b.length - 2] !== 0xff || b[b.length - 1] !== 0xd9) return undefined;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    if (b[i + 1] === 0xff) {
      i += 1; // fill byte before a marker (ITU T.81 B.1.1.2)
      continue;
    }
    const marker = b[i + 1]!;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC) carry the frame size
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)];
    }
    i += 2 + len;
  }
  return undefined;
}

export function checkLogoDataUrl(value: string): LogoCheck {
  const m = DATA_URL.exec(value);
  if (!m) {
    return { ok: false, message: "must be a data URL of the form data:image/<type>;base64,<data>" };
  }
  const declared = m[1] === "jpg" ? "jpeg" : m[1]!;
  if (declared === "svg+xml" || declared === "svg") {
    return { ok: false, message: "SVG logos are not accepted; use PNG, JPEG, GIF or WebP" };
  }
  if (!(LOGO_TYPES as readonly string[]).includes(declared)) {
    return { ok: false, message: `image type "${m[1]}" is not accepted; use PNG, JPEG, GIF or WebP` };
  }
  if (m[2]!.length % 4 !== 0) return { ok: false, message: "the base64 data is malformed" };
  const bytes = Buffer.from(m[2]!, "base64");
  if (bytes.length === 0) return { ok: false, message: "the image is empty" };
  if (bytes.length > LOGO_MAX_BYTES) {
    return { ok: false, message: `the image is ${bytes.length} bytes; the limit is ${LOGO_MAX_BYTES} bytes` };
  }
  const size =
    declared === "png"
      ? pngSize(bytes)
      : declared === "gif"
        ? gifSize(bytes)
        : declared === "webp"
          ? webpSize(bytes)
          : jpegSize(bytes);
  if (!size) return { ok: false, message: `the data is not a valid ${declared.toUpperCase()} image` };
  const [width, height] = size;
  if (width < 1 || height < 1 || width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE) {
    return { ok: false, message: `image dimensions ${width}x${height} are outside 1..${LOGO_MAX_SIDE} px` };
  }
  return { ok: true, type: declared as (typeof LOGO_TYPES)[number], width, height };
}
