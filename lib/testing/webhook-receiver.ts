/**
 * A real HTTP webhook receiver for tests: a node:http server on 127.0.0.1 (random port) that
 * records every request (headers, raw body, time), checks signatures with lib/webhooks/receiver.ts
 * — the code integrators are offered — when given the secret, and answers as programmed per
 * request (status, headers, delay; a delay longer than the caller's timeout is a hang).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import { verifyWebhook, WEBHOOK_SIGNATURE_HEADER, type TWebhookEvent } from "../webhooks/receiver";

export interface TReceivedRequest {
  /** 0-based arrival order */
  index: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  receivedAt: Date;
  signature: string | undefined;
  /** undefined when the receiver has no secret; else whether verifyWebhook accepted it */
  signatureValid: boolean | undefined;
  signatureError?: string;
  /** how many earlier requests were still waiting for their answer when this one arrived */
  unansweredBefore: number;
  /** the sender's port: requests with the same one came over the same connection */
  remotePort: number | undefined;
  /** the parsed body (undefined if it is not JSON) */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  event: (TWebhookEvent & Record<string, any>) | undefined;
}

export interface TReceiverReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** answer only after this many milliseconds */
  delayMs?: number;
  /** answer only once this settles (a gate the test opens) */
  until?: Promise<unknown>;
}

export type TReceiverResponder = (request: TReceivedRequest) => TReceiverReply | undefined;

export interface TWebhookReceiver {
  /** http://127.0.0.1:<port>/hooks */
  url: string;
  urlFor(path: string): string;
  requests: TReceivedRequest[];
  setSecret(secret: string | undefined): void;
  /** programs the answers (default: 200 to everything) */
  respond(responder: TReceiverResponder): void;
  /** answers `status` to the first `n` requests from now on, then 200 */
  failFirst(n: number, status?: number): void;
  waitForRequests(n: number, timeoutMs?: number): Promise<TReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  options: { secret?: string; respond?: TReceiverResponder } = {},
): Promise<TWebhookReceiver> {
  let secret = options.secret;
  let responder: TReceiverResponder = options.respond ?? (() => undefined);
  const requests: TReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let unanswered = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signatureHeader = req.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()];
      const signature = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
      let event: TReceivedRequest["event"];
      try {
        event = JSON.parse(body);
      } catch {
        event = undefined;
      }
      const received: TReceivedRequest = {
        index: requests.length,
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
        receivedAt: new Date(),
        signature,
        signatureValid: undefined,
        unansweredBefore: unanswered,
        remotePort: req.socket.remotePort,
        event,
      };
      unanswered++;
      let answered = false;
      const done = () => {
        if (answered) return;
        answered = true;
        unanswered--;
      };
      res.on("close", done);
      if (secret !== undefined) {
        try {
          verifyWebhook(body, signature ?? null, secret);
          received.signatureValid = true;
        } catch (err) {
          received.signatureValid = false;
          received.signatureError = (err as Error).message;
        }
      }
      requests.push(received);
      for (const wake of waiters) wake();

      const reply = responder(received) ?? {};
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { "Content-Type": "text/plain", ...reply.headers });
        res.end(reply.body ?? "ok");
        done();
      };
      if (reply.until) void reply.until.then(answer, answer);
      else if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, reply.delayMs);
        timers.add(timer);
      } else answer();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const urlFor = (path: string) => `http://127.0.0.1:${port}${path.startsWith("/") ? path : `/${path}`}`;

  return {
    url: urlFor("/hooks"),
    urlFor,
    requests,
    setSecret(value) {
      secret = value;
    },
    respond(next) {
      responder = next;
    },
    failFirst(n, status = 500) {
      let failures = 0;
      responder = () => (failures++ < n ? { status, body: "failing on purpose" } : undefined);
    },
    waitForRequests(n, timeoutMs = 10_000) {
      if (requests.length >= n) return Promise.resolve(requests.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${n} webhook requests within ${timeoutMs} ms, got ${requests.length}`));
        }, timeoutMs);
        const check = () => {
          if (requests.length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests.slice());
        };
        waiters.add(check);
      });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
