/**
 * checkLogoDataUrl against real images: every image below is built byte by byte (PNG with
 * deflated scanlines and correct CRCs, GIF89a with LZW data, baseline JPEG with Huffman-coded
 * scan, lossless and extended WebP) and decodes in libvips/libpng/libjpeg/libwebp.
 */
import { describe, expect, it } from "vitest";
import { deflateSync } from "node:zlib";
import { checkLogoDataUrl, LOGO_MAX_BYTES, LOGO_MAX_SIDE } from "./logo";

// ---- PNG -------------------------------------------------------------------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** An RGB PNG (8 bits per channel); `pixel` gives each pixel's colour. */
function makePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number] = (x, y) => [x * 40, y * 40, 200],
  level = 9,
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering
  ihdr[12] = 0; // no interlace
  const raw = Buffer.alloc((1 + width * 3) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw, { level })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

// ---- GIF -------------------------------------------------------------------------------------
/** A GIF89a with a 4-colour palette; LZW data emits a clear code every two pixels so codes stay 3 bits. */
function makeGif(width: number, height: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen[4] = 0b1000_0001; // global colour table, 2^(1+1) = 4 entries
  const palette = Buffer.from([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);

  const CLEAR = 4;
  const END = 5;
  const codes: number[] = [];
  for (let i = 0; i < width * height; i++) {
    if (i % 2 === 0) codes.push(CLEAR);
    codes.push(i % 4);
  }
  codes.push(END);
  const lzw: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const code of codes) {
    acc |= code << bits;
    bits += 3;
    while (bits >= 8) {
      lzw.push(acc & 0xff);
      acc >>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) lzw.push(acc & 0xff);
  const blocks: number[] = [];
  for (let i = 0; i < lzw.length; i += 255) {
    const part = lzw.slice(i, i + 255);
    blocks.push(part.length, ...part);
  }
  return Buffer.concat([
    Buffer.from("GIF89a", "latin1"),
    screen,
    palette,
    descriptor,
    Buffer.from([2, ...blocks, 0]), // LZW minimum code size, sub-blocks, block terminator
    Buffer.from([0x3b]), // trailer
  ]);
}

// ---- JPEG ------------------------------------------------------------------------------------
function jpegSegment(marker: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head[0] = 0xff;
  head[1] = marker;
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/**
 * A baseline greyscale JPEG (SOI, APP0/JFIF, DQT, SOF0, DHT, SOS, scan, EOI) of a flat mid-grey
 * image. Both Huffman tables hold one 1-bit code (DC: category 0, AC: end of block), so each
 * 8x8 block is the two bits "00"; the scan is padded with 1 bits.
 */
function makeJpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const dqt = Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 1)]);
  const sof = Buffer.alloc(9);
  sof[0] = 8; // precision
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  sof[5] = 1; // one component
  sof[6] = 1; // component id
  sof[7] = 0x11; // sampling 1x1
  sof[8] = 0; // quantisation table 0
  // code counts per length 1..16: a single code of length 1
  const oneCode = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const dht = Buffer.from([
    ...[0x00, ...oneCode, 0x00], // DC table 0: symbol 0 (difference category 0)
    ...[0x10, ...oneCode, 0x00], // AC table 0: symbol 0x00 (end of block)
  ]);
  const sos = Buffer.from([1, 1, 0x00, 0, 63, 0]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const scan: number[] = [];
  const totalBits = blocks * 2;
  for (let i = 0; i < Math.ceil(totalBits / 8); i++) {
    const dataBits = Math.min(8, totalBits - i * 8);
    const byte = (0xff >> dataBits) & 0xff; // data bits are all 0, padding bits are 1
    scan.push(byte);
    if (byte === 0xff) scan.push(0x00);
  }
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    jpegSegment(0xe0, app0),
    jpegSegment(0xdb, dqt),
    jpegSegment(0xc0, sof),
    jpegSegment(0xc4, dht),
    jpegSegment(0xda, sos),
    Buffer.from(scan),
    Buffer.from([0xff, 0xd9]),
  ]);
}

// ---- WebP ------------------------------------------------------------------------------------
class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private n = 0;
  write(value: number, bits: number): this {
    for (let i = 0; i < bits; i++) {
      this.acc |= ((value >> i) & 1) << this.n;
      if (++this.n === 8) {
        this.bytes.push(this.acc);
        this.acc = 0;
        this.n = 0;
      }
    }
    return this;
  }
  finish(): Buffer {
    return Buffer.from(this.n > 0 ? [...this.bytes, this.acc] : this.bytes);
  }
}

function riffChunk(fourcc: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, "latin1");
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from("WEBP", "latin1"), ...chunks]);
  const head = Buffer.alloc(8);
  head.write("RIFF", 0, "latin1");
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

/**
 * A lossless (VP8L) bitstream of a single opaque colour: no transforms, no colour cache, no meta
 * prefix codes, and five "simple" one-symbol prefix codes, so pixels take zero bits.
 */
function vp8lBitstream(width: number, height: number): Buffer {
  const w = new BitWriter();
  w.write(0x2f, 8)
    .write(width - 1, 14)
    .write(height - 1, 14)
    .write(0, 1)
    .write(0, 3);
  w.write(0, 1); // no transform
  w.write(0, 1); // no colour cache
  w.write(0, 1); // no meta prefix codes
  const simple = (symbol: number) => {
    w.write(1, 1).write(0, 1); // simple code, one symbol
    if (symbol < 2) w.write(0, 1).write(symbol, 1);
    else w.write(1, 1).write(symbol, 8);
  };
  simple(0x80); // green
  simple(0x20); // red
  simple(0xc0); // blue
  simple(0xff); // alpha
  simple(0); // distance
  return w.finish();
}

function makeWebpLossless(width: number, height: number): Buffer {
  return riff([riffChunk("VP8L", vp8lBitstream(width, height))]);
}

/** Extended WebP: a VP8X header naming the canvas size, then the VP8L image. */
function makeWebpExtended(width: number, height: number): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  return riff([riffChunk("VP8X", vp8x), riffChunk("VP8L", vp8lBitstream(width, height))]);
}

function dataUrl(type: string, bytes: Buffer): string {
  return `data:image/${type};base64,${bytes.toString("base64")}`;
}

const FORMAT_MESSAGE = "must be a data URL of the form data:image/<type>;base64,<data>";

describe("checkLogoDataUrl: accepted images", () => {
  it("accepts a PNG and reports its size", () => {
    expect(checkLogoDataUrl(dataUrl("png", makePng(3, 2)))).toEqual({
      ok: true,
      type: "png",
      width: 3,
      height: 2,
    });
  });

  it("accepts a GIF89a and reports its size", () => {
    expect(checkLogoDataUrl(dataUrl("gif", makeGif(5, 3)))).toEqual({
      ok: true,
      type: "gif",
      width: 5,
      height: 3,
    });
  });

  it("accepts a GIF87a too", () => {
    const gif87 = makeGif(4, 6);
    gif87.write("GIF87a", 0, "latin1");
    expect(checkLogoDataUrl(dataUrl("gif", gif87))).toEqual({ ok: true, type: "gif", width: 4, height: 6 });
  });

  it("accepts a baseline JPEG and reports its size from the frame header", () => {
    expect(checkLogoDataUrl(dataUrl("jpeg", makeJpeg(20, 10)))).toEqual({
      ok: true,
      type: "jpeg",
      width: 20,
      height: 10,
    });
  });

  it("accepts image/jpg as an alias of image/jpeg", () => {
    expect(checkLogoDataUrl(dataUrl("jpg", makeJpeg(321, 123)))).toEqual({
      ok: true,
      type: "jpeg",
      width: 321,
      height: 123,
    });
  });

  it("accepts a lossless (VP8L) WebP and reports its size", () => {
    expect(checkLogoDataUrl(dataUrl("webp", makeWebpLossless(7, 5)))).toEqual({
      ok: true,
      type: "webp",
      width: 7,
      height: 5,
    });
  });

  it("accepts an extended (VP8X) WebP and reports the canvas size", () => {
    expect(checkLogoDataUrl(dataUrl("webp", makeWebpExtended(9, 4)))).toEqual({
      ok: true,
      type: "webp",
      width: 9,
      height: 4,
    });
  });

  it(`accepts exactly ${LOGO_MAX_SIDE} px on a side`, () => {
    const wide = makeJpeg(LOGO_MAX_SIDE, 1);
    expect(checkLogoDataUrl(dataUrl("jpeg", wide))).toEqual({
      ok: true,
      type: "jpeg",
      width: LOGO_MAX_SIDE,
      height: 1,
    });
  });
});

describe("checkLogoDataUrl: refusals", () => {
  const refused = (value: string) => {
    const result = checkLogoDataUrl(value);
    expect(result.ok).toBe(false);
    return result.ok ? "" : result.message;
  };

  it("refuses SVG, naming the accepted types", () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(refused(dataUrl("svg+xml", svg))).toBe("SVG logos are not accepted; use PNG, JPEG, GIF or WebP");
    expect(refused(dataUrl("svg", svg))).toBe("SVG logos are not accepted; use PNG, JPEG, GIF or WebP");
  });

  it("refuses an unknown image type, naming it", () => {
    expect(refused(dataUrl("bmp", Buffer.from("BM\0\0\0\0")))).toBe(
      'image type "bmp" is not accepted; use PNG, JPEG, GIF or WebP',
    );
  });

  it("refuses values that are not base64 image data URLs", () => {
    const png = makePng(1, 1).toString("base64");
    expect(refused("https://example.com/logo.png")).toBe(FORMAT_MESSAGE);
    expect(refused("http://example.com/logo.png")).toBe(FORMAT_MESSAGE);
    expect(refused(png)).toBe(FORMAT_MESSAGE);
    expect(refused(`data:text/plain;base64,${png}`)).toBe(FORMAT_MESSAGE);
    expect(refused(`data:image/png,${png}`)).toBe(FORMAT_MESSAGE);
    expect(refused(`data:image/PNG;base64,${png}`)).toBe(FORMAT_MESSAGE);
    expect(refused(`data:image/png;base64,${png.slice(0, 8)}\n${png.slice(8)}`)).toBe(FORMAT_MESSAGE);
    expect(refused(` data:image/png;base64,${png}`)).toBe(FORMAT_MESSAGE);
    expect(refused("")).toBe(FORMAT_MESSAGE);
  });

  it("refuses bytes of another type than declared", () => {
    expect(refused(dataUrl("png", makeGif(2, 2)))).toBe("the data is not a valid PNG image");
    expect(refused(dataUrl("gif", makePng(2, 2)))).toBe("the data is not a valid GIF image");
    expect(refused(dataUrl("jpeg", makeWebpLossless(2, 2)))).toBe("the data is not a valid JPEG image");
    expect(refused(dataUrl("webp", makeJpeg(2, 2)))).toBe("the data is not a valid WEBP image");
  });

  it("refuses a PNG cut short (no IEND)", () => {
    const png = makePng(4, 4);
    expect(refused(dataUrl("png", png.subarray(0, png.length - 12)))).toBe(
      "the data is not a valid PNG image",
    );
  });

  it("refuses a PNG whose first chunk is not IHDR", () => {
    const png = makePng(4, 4);
    png.write("IHDX", 12, "latin1");
    expect(refused(dataUrl("png", png))).toBe("the data is not a valid PNG image");
  });

  it("refuses a JPEG without its end-of-image marker", () => {
    const jpeg = makeJpeg(8, 8);
    expect(refused(dataUrl("jpeg", jpeg.subarray(0, jpeg.length - 2)))).toBe(
      "the data is not a valid JPEG image",
    );
  });

  it("refuses a GIF without its trailer", () => {
    const gif = makeGif(3, 3);
    expect(refused(dataUrl("gif", gif.subarray(0, gif.length - 1)))).toBe(
      "the data is not a valid GIF image",
    );
  });

  it("refuses a WebP whose RIFF length does not match the data", () => {
    const webp = makeWebpLossless(3, 3);
    expect(refused(dataUrl("webp", Buffer.concat([webp, Buffer.alloc(2)])))).toBe(
      "the data is not a valid WEBP image",
    );
  });

  it("refuses empty data", () => {
    expect(refused("data:image/png;base64,")).toBe("the image is empty");
  });

  it("refuses base64 whose length is not a multiple of 4", () => {
    const b64 = makePng(2, 2).toString("base64").replace(/=+$/, "");
    expect(b64.length % 4).not.toBe(0);
    expect(refused(`data:image/png;base64,${b64}`)).toBe("the base64 data is malformed");
    expect(refused(`data:image/png;base64,${makeGif(2, 2).toString("base64").slice(0, -1)}`)).toBe(
      "the base64 data is malformed",
    );
  });

  it(`refuses images over ${LOGO_MAX_BYTES} bytes`, () => {
    // random pixels stored without compression: a valid PNG of 600x300 that weighs ~540 kB
    let seed = 1;
    const noise = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    const big = makePng(600, 300, () => [noise(), noise(), noise()], 0);
    expect(big.length).toBeGreaterThan(LOGO_MAX_BYTES);
    expect(refused(dataUrl("png", big))).toBe(
      `the image is ${big.length} bytes; the limit is ${LOGO_MAX_BYTES} bytes`,
    );
  });

  it(`accepts an image of exactly ${LOGO_MAX_BYTES} bytes`, () => {
    // a PNG may carry ancillary chunks; pad one with a tEXt chunk to the exact limit
    const base = makePng(2, 2);
    const iend = base.subarray(base.length - 12);
    const padding = LOGO_MAX_BYTES - base.length - 12;
    const text = pngChunk(
      "tEXt",
      Buffer.concat([Buffer.from("Comment\0", "latin1"), Buffer.alloc(padding - 8, 0x61)]),
    );
    const exact = Buffer.concat([base.subarray(0, base.length - 12), text, iend]);
    expect(exact.length).toBe(LOGO_MAX_BYTES);
    expect(checkLogoDataUrl(dataUrl("png", exact))).toEqual({ ok: true, type: "png", width: 2, height: 2 });
  });

  it(`refuses images wider or taller than ${LOGO_MAX_SIDE} px`, () => {
    const black = (): [number, number, number] => [0, 0, 0];
    expect(refused(dataUrl("png", makePng(LOGO_MAX_SIDE + 1, 1, black)))).toBe(
      `image dimensions ${LOGO_MAX_SIDE + 1}x1 are outside 1..${LOGO_MAX_SIDE} px`,
    );
    expect(refused(dataUrl("png", makePng(1, LOGO_MAX_SIDE + 1, black)))).toBe(
      `image dimensions 1x${LOGO_MAX_SIDE + 1} are outside 1..${LOGO_MAX_SIDE} px`,
    );
    expect(refused(dataUrl("gif", makeGif(5000, 1)))).toBe(
      `image dimensions 5000x1 are outside 1..${LOGO_MAX_SIDE} px`,
    );
    expect(refused(dataUrl("jpeg", makeJpeg(8, 4100)))).toBe(
      `image dimensions 8x4100 are outside 1..${LOGO_MAX_SIDE} px`,
    );
    expect(refused(dataUrl("webp", makeWebpExtended(16000, 2)))).toBe(
      `image dimensions 16000x2 are outside 1..${LOGO_MAX_SIDE} px`,
    );
  });

  it("refuses an image that claims zero width", () => {
    const gif = makeGif(1, 1);
    gif.writeUInt16LE(0, 6);
    expect(refused(dataUrl("gif", gif))).toBe(`image dimensions 0x1 are outside 1..${LOGO_MAX_SIDE} px`);
  });
});
