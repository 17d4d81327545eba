import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import dns from "node:dns";
import {
  assertAllowedHost,
  createGuardedLookup,
  ForbiddenAddressError,
  guardedLookup,
  isForbiddenAddress,
  type TResolve,
} from "./ssrf";

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
    "",
    "127.1",
    // other spellings of the same addresses: expanded, upper case, leading zeros, dotted tails
    "64:ff9b:0:0:0:0:7f00:1",
    "64:FF9B:0000:0000:0000:0000:7F00:0001",
    "64:ff9b::127.0.0.1",
    "0:0:0:0:0:ffff:7f00:1",
    "0:0:0:0:0:FFFF:127.0.0.1",
    "::FFFF:A9FE:A9FE",
    "[::ffff:127.0.0.1]",
    "0:0:0:0:0:0:0:1",
    "0000:0000:0000:0000:0000:0000:0000:0000",
    "FE80::1",
    "fe80::1%eth0",
    "fe80::1%25",
    "FD00:EC2::254",
    // ranges that embed an IPv4 address and are refused whatever it is
    "::127.0.0.1", // IPv4-compatible (::/96), deprecated
    "::8.8.8.8",
    "::7f00:1",
    "::808:808",
    "2002:7f00:1::", // 6to4
    "2002:808:808::1",
    "2002:0808:0808:0000:0000:0000:0000:0001",
    "64:ff9b:1::808:808", // local-use NAT64 (64:ff9b:1::/48)
    "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
    "::ffff:0:808:808", // IPv4-translated (::ffff:0:0:0/96)
    "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo (2001::/32)
    "2001:2::1", // benchmarking
    // other special-purpose IPv6 space
    "3fff::1",
    "5f00::1",
    "100::1",
    "4000::1",
  ])("refuses %s", (ip) => expect(isForbiddenAddress(ip)).toBe(true));

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "64:ff9b:0:0:0:0:808:808",
    "0:0:0:0:0:FFFF:808:808",
    "2606:4700:4700:0:0:0:0:1111",
    "2A00:1450:4001:0830::200E",
    "[2606:4700:4700::1111]",
  ])("allows public %s", (ip) => expect(isForbiddenAddress(ip)).toBe(false));
});

/** Runs a guarded lookup the way node:net does and reports what it hands to the socket. */
function lookupWith(
  resolve: TResolve,
  hostname: string,
  options: dns.LookupOptions,
): Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }> {
  const lookup = createGuardedLookup(resolve);
  return new Promise((done) =>
    lookup(hostname, options, (err, address, family) => done({ err, address, family })),
  );
}

describe("createGuardedLookup (stubbed resolver)", () => {
  const previous = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  afterEach(() => {
    if (previous === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = previous;
  });

  const answers = (...addresses: string[]): TResolve => {
    return async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

  it.each([
    [["93.184.216.34", "127.0.0.1"]],
    [["127.0.0.1", "93.184.216.34"]],
    [["93.184.216.34", "8.8.8.8", "10.0.0.5"]],
    [["2606:4700:4700::1111", "64:ff9b:0:0:0:0:7f00:1"]],
    [["2606:4700:4700::1111", "::ffff:169.254.169.254"]],
  ])("refuses the whole answer %j when any address is forbidden", async (addresses) => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    for (const all of [true, false]) {
      const { err, address } = await lookupWith(answers(...addresses), "hooks.example.com", { all });
      expect(err).toBeInstanceOf(ForbiddenAddressError);
      expect(
        address === "" || address === undefined || (Array.isArray(address) && address.length === 0),
      ).toBe(true);
    }
  });

  it("hands only the checked addresses to the socket", async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    const resolve = answers("93.184.216.34", "2606:4700:4700::1111");
    expect(await lookupWith(resolve, "hooks.example.com", { all: true })).toEqual({
      err: null,
      address: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:4700:4700::1111", family: 6 },
      ],
      family: undefined,
    });
    expect(await lookupWith(resolve, "hooks.example.com", {})).toEqual({
      err: null,
      address: "93.184.216.34",
      family: 4,
    });
  });

  it("passes the requested family to the resolver and reports an empty answer as not found", async () => {
    const asked: Array<[string, number, number]> = [];
    const resolve: TResolve = async (hostname, { family, hints }) => {
      asked.push([hostname, family, hints]);
      return [];
    };
    const { err } = await lookupWith(resolve, "nothing.example.com", {
      family: 6,
      hints: dns.ADDRCONFIG,
      all: true,
    });
    expect(err?.code).toBe("ENOTFOUND");
    expect(asked).toEqual([["nothing.example.com", 6, dns.ADDRCONFIG]]);
  });

  it("passes resolver errors through", async () => {
    const failure = Object.assign(new Error("getaddrinfo ENOTFOUND x"), { code: "ENOTFOUND" });
    const { err } = await lookupWith(
      async () => {
        throw failure;
      },
      "x",
      { all: true },
    );
    expect(err).toBe(failure);
  });

  it("lets private answers through when private networks are allowed", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    const { err, address } = await lookupWith(answers("93.184.216.34", "127.0.0.1"), "h", { all: true });
    expect(err).toBeNull();
    expect(address).toHaveLength(2);
  });
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
