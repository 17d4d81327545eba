/**
 * clientIp (./index.ts): the address every per-address limit counts. The left of X-Forwarded-For is
 * whatever the client wrote; only the entries appended by the production server and the trusted
 * proxies (IDV_TRUST_PROXY_HOPS) are believed.
 */
import { describe, expect, it } from "vitest";
import { restoreEnvAfterEach, setEnv } from "../testing/env";
import { clientIp } from "./index";

restoreEnvAfterEach();

const ipOf = (forwardedFor?: string) =>
  clientIp(new Headers(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }));

describe("clientIp", () => {
  it("takes the right-most entry (the peer the server appended), never a client-written one", () => {
    expect(ipOf("203.0.113.7")).toBe("203.0.113.7");
    expect(ipOf("10.9.8.7, 192.0.2.1, 203.0.113.7")).toBe("203.0.113.7");
    // a client that writes its own header changes only the entries before the peer's
    expect(ipOf("198.51.100.1, 203.0.113.7")).toBe(ipOf("198.51.100.2, 203.0.113.7"));
    // spaces and empty entries are not entries
    expect(ipOf(" 198.51.100.1 ,, 203.0.113.7 , ")).toBe("203.0.113.7");
  });

  it("skips IDV_TRUST_PROXY_HOPS entries from the right: the address before the trusted proxies", () => {
    setEnv({ IDV_TRUST_PROXY_HOPS: "1" });
    expect(ipOf("10.9.8.7, 203.0.113.7, 192.0.2.10")).toBe("203.0.113.7");
    expect(ipOf("forged-1, 203.0.113.7, 192.0.2.10")).toBe(ipOf("forged-2, 203.0.113.7, 192.0.2.10"));
    setEnv({ IDV_TRUST_PROXY_HOPS: "2" });
    expect(ipOf("10.9.8.7, 203.0.113.7, 192.0.2.10, 192.0.2.11")).toBe("203.0.113.7");
    // fewer entries than trusted proxies: the left-most there is (written by the first proxy)
    expect(ipOf("203.0.113.7, 192.0.2.10")).toBe("203.0.113.7");
  });

  it("is `unknown` without the header (every such request shares one key)", () => {
    expect(ipOf()).toBe("unknown");
    expect(ipOf(" , ")).toBe("unknown");
  });
});
