/**
 * Reading a received message (the development mailbox and the tests' SMTP receiver): headers
 * unfolded, RFC 2047 encoded words decoded, and the text/plain and text/html parts of a
 * (possibly nested) multipart body, decoded from quoted-printable or base64. UTF-8 only: what
 * nodemailer writes. Not a general MIME parser.
 */

export interface TParsedMessage {
  headers: Map<string, string>;
  subject: string;
  text: string;
  html: string;
}

function splitHead(raw: string): { head: string; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { head: raw, body: "" };
  const gap = /\r?\n\r?\n/.exec(raw.slice(at))![0].length;
  return { head: raw.slice(0, at), body: raw.slice(at + gap) };
}

function parseHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

function qpBytes(text: string): Buffer {
  const bytes: number[] = [];
  const input = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < input.length; i++) {
    const hex = input.slice(i + 1, i + 3);
    if (input[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(input[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

/** "=?UTF-8?Q?Caf=C3=A9?=" → "Café" (Q and B encodings; adjacent words joined). */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : qpBytes(data.replace(/_/g, " ")).toString("utf8"),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case "quoted-printable":
      return qpBytes(body).toString("utf8");
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

function parameter(header: string, name: string): string | undefined {
  const m = new RegExp(`${name}="?([^";]+)"?`, "i").exec(header);
  return m?.[1];
}

function collectParts(raw: string, out: { text: string; html: string }): Map<string, string> {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const type = headers.get("content-type") ?? "text/plain";
  const mediaType = type.split(";")[0]!.trim().toLowerCase();
  if (mediaType.startsWith("multipart/")) {
    const boundary = parameter(type, "boundary");
    if (boundary) {
      const parts = body.split(`--${boundary}`).slice(1);
      for (const part of parts) {
        if (part.startsWith("--")) break;
        // the line break before a boundary belongs to the boundary (RFC 2046)
        collectParts(part.replace(/^\r?\n/, "").replace(/\r?\n$/, ""), out);
      }
    }
  } else if (mediaType === "text/plain" && !out.text) {
    out.text = decodeBody(body, headers.get("content-transfer-encoding")).replace(/\r\n/g, "\n");
  } else if (mediaType === "text/html" && !out.html) {
    out.html = decodeBody(body, headers.get("content-transfer-encoding")).replace(/\r\n/g, "\n");
  }
  return headers;
}

export function parseMessage(raw: string): TParsedMessage {
  const out = { text: "", html: "" };
  const headers = collectParts(raw, out);
  return { headers, subject: decodeWords(headers.get("subject") ?? ""), text: out.text, html: out.html };
}

/** The http(s) links of a plain-text body, in order. */
export function linksOf(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]);
}
