/**
 * Reading a received message (the development mailbox and the tests' SMTP receiver) with the
 * maintained `mailparser` package: headers, encoded words and charsets, and the text/plain and
 * text/html bodies of any MIME structure. Line breaks of the bodies are `\n`.
 */
import { simpleParser } from "mailparser";

export interface TParsedMessage {
  subject: string;
  text: string;
  html: string;
}

export async function parseMessage(raw: string | Buffer): Promise<TParsedMessage> {
  const parsed = await simpleParser(raw, {
    // the bodies as sent: no text made from the HTML, no HTML from the text, no links added
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  return {
    subject: parsed.subject ?? "",
    text: (parsed.text ?? "").replace(/\r\n/g, "\n"),
    html: typeof parsed.html === "string" ? parsed.html.replace(/\r\n/g, "\n") : "",
  };
}

/** The http(s) links of a plain-text body, in order. */
export function linksOf(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]);
}
