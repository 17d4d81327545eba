/**
 * A small authoritative DNS server on 127.0.0.1 (UDP; a random port unless one is given — the
 * end-to-end server is started with a fixed IDV_DNS_SERVERS) for custom domain tests.
 * It answers from a table the test controls: CNAME, TXT, A and AAAA records per name; names not
 * in the table are NXDOMAIN, names without the asked type are "no data". Names put in `silent`
 * get no answer at all (the resolver times out); names in `servfail` get SERVFAIL.
 */
import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import dnsPacket from "dns-packet";

export interface TTestZoneEntry {
  CNAME?: string;
  TXT?: string[];
  A?: string[];
  AAAA?: string[];
}

export interface TTestDnsServer {
  /** `127.0.0.1:<port>`, for IDV_DNS_SERVERS */
  address: string;
  records: Map<string, TTestZoneEntry>;
  silent: Set<string>;
  servfail: Set<string>;
  /** every question asked, as `TYPE name` */
  queries: string[];
  close(): Promise<void>;
}

const norm = (name: string) => name.toLowerCase().replace(/\.$/, "");

export async function startTestDnsServer({ port = 0 }: { port?: number } = {}): Promise<TTestDnsServer> {
  const socket = dgram.createSocket("udp4");
  const records = new Map<string, TTestZoneEntry>();
  const silent = new Set<string>();
  const servfail = new Set<string>();
  const queries: string[] = [];

  socket.on("message", (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = norm(question.name);
    queries.push(`${question.type} ${name}`);
    if (silent.has(name)) return;

    const entry = records.get(name);
    const answers: dnsPacket.Answer[] = [];
    let rcode: "NOERROR" | "NXDOMAIN" | "SERVFAIL" = "NOERROR";
    if (servfail.has(name)) rcode = "SERVFAIL";
    else if (!entry) rcode = "NXDOMAIN";
    else if (question.type === "CNAME" && entry.CNAME) {
      answers.push({ type: "CNAME", name: question.name, ttl: 60, data: entry.CNAME });
    } else if (question.type === "TXT" && entry.TXT) {
      for (const value of entry.TXT) answers.push({ type: "TXT", name: question.name, ttl: 60, data: value });
    } else if (question.type === "A" && entry.A) {
      for (const ip of entry.A) answers.push({ type: "A", name: question.name, ttl: 60, data: ip });
    } else if (question.type === "AAAA" && entry.AAAA) {
      for (const ip of entry.AAAA) answers.push({ type: "AAAA", name: question.name, ttl: 60, data: ip });
    }
    const response = dnsPacket.encode({
      type: "response",
      id: query.id,
      // authoritative answer, recursion desired/available, plus the response code
      flags:
        dnsPacket.AUTHORITATIVE_ANSWER |
        dnsPacket.RECURSION_DESIRED |
        dnsPacket.RECURSION_AVAILABLE |
        (rcode === "NXDOMAIN" ? 3 : rcode === "SERVFAIL" ? 2 : 0),
      questions: [question],
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(port, "127.0.0.1", () => resolve());
  });
  const bound = (socket.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${bound}`,
    records,
    silent,
    servfail,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
