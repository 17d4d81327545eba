/** /verify/{id}/qr on its own (lib/hosted/qr.ts), the database replaced: the image, its address, the frame. */
import QRCode from "qrcode";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { kysely } from "../db/client";
import { HANDLER_CSP } from "../http/security-headers.mjs";
import { readSessionEnvironment } from "../verifications/store/hosted";
import { qrFrame, qrImage } from "./qr";

vi.mock("../db/client", () => ({ kysely: vi.fn() }));
vi.mock("../verifications/store/hosted", () => ({ readSessionEnvironment: vi.fn() }));

const ID = `ver_${"2".repeat(26)}`;
const db = {};
const findUnique = vi.mocked(readSessionEnvironment);
const get = (query = "") => qrImage(new Request(`http://localhost/verify/${ID}/qr${query}`), ID);

const publicUrl = process.env.PUBLIC_URL;
beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(kysely).mockReturnValue(db as never);
  process.env.PUBLIC_URL = "https://idv.example.com";
});
afterEach(() => {
  vi.restoreAllMocks();
  if (publicUrl === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = publicUrl;
});

describe("qrImage", () => {
  it("is an SVG with the hosted headers, reading the session's environment only", async () => {
    findUnique.mockResolvedValue("sandbox");
    const res = await get("?f=3");
    expect(findUnique).toHaveBeenCalledWith(db, ID);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("content-security-policy")).toBe(HANDLER_CSP);
    expect(await res.text()).toMatch(/^<svg /);
  });

  it("encodes the simulator with the frame in the sandbox, the start address in production", async () => {
    const toString = vi.spyOn(QRCode, "toString");
    findUnique.mockResolvedValue("sandbox");
    await get("?f=3");
    expect(toString).toHaveBeenLastCalledWith(
      `https://idv.example.com/sandbox/verify/${ID}?flow=qr&f=3`,
      // (qrcode adds its defaults to the options object it is given)
      expect.objectContaining({ type: "svg", margin: 2, errorCorrectionLevel: "M" }),
    );
    findUnique.mockResolvedValue("production");
    await get("?f=3");
    expect(toString).toHaveBeenLastCalledWith(
      `https://idv.example.com/verify/${ID}/start`,
      expect.anything(),
    );
  });

  it("is the hosted 404 in text for a session that does not exist", async () => {
    findUnique.mockResolvedValue(undefined);
    const res = await get();
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("Verification not found");
  });
});

describe("qrFrame", () => {
  it("is the frame number of 1 to 12 digits, else 0", () => {
    expect(qrFrame("7")).toBe("7");
    expect(qrFrame("123456789012")).toBe("123456789012");
    for (const raw of [null, "", "1234567890123", "-1", "1e3", "x"]) expect(qrFrame(raw)).toBe("0");
  });
});
