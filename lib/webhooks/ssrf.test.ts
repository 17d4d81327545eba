import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { assertAllowedHost, ForbiddenAddressError, guardedLookup, isForbiddenAddress } from "./ssrf";

describe("isForbiddenAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "not-an-ip",
  ])("refuses %s", (ip) => expect(isForbiddenAddress(ip)).toBe(true));

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
  ])("allows public %s", (ip) => expect(isForbiddenAddress(ip)).toBe(false));
});

describe("guarded connections", () => {
  const previous = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  afterEach(() => {
    if (previous === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = previous;
  });

  async function withServer<T>(fn: (port: number) => Promise<T>): Promise<T> {
    const server = http.createServer((_req, res) => res.end("reached"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      return await fn((server.address() as AddressInfo).port);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }

  function get(url: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const u = new URL(url);
      try {
        assertAllowedHost(u.hostname);
      } catch (err) {
        return reject(err);
      }
      const req = http.get(url, { lookup: guardedLookup as never }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve(body));
      });
      req.on("error", reject);
    });
  }

  it("refuses a name that resolves to loopback, at connect time", async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    await withServer(async (port) => {
      await expect(get(`http://localhost:${port}/`)).rejects.toBeInstanceOf(ForbiddenAddressError);
    });
  });

  it("refuses IP literals in private ranges, including IPv4-mapped IPv6", async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    await withServer(async (port) => {
      await expect(get(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(ForbiddenAddressError);
      expect(() => assertAllowedHost("[::ffff:127.0.0.1]")).toThrow(ForbiddenAddressError);
      expect(() => assertAllowedHost("169.254.169.254")).toThrow(ForbiddenAddressError);
    });
  });

  it("connects when private networks are allowed", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    await withServer(async (port) => {
      expect(await get(`http://localhost:${port}/`)).toBe("reached");
      expect(await get(`http://127.0.0.1:${port}/`)).toBe("reached");
    });
  });
});
