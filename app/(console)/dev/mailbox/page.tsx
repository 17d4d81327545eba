// The development mailbox: the mail `npm run dev` caught instead of sending (lib/mail/catcher.ts),
// newest first, links clickable. 404 unless IDV_DEV_MAILBOX is on (never in production on https).
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { config } from "@/lib/config";
import { readMailbox } from "@/lib/mail/mailbox";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Development mailbox", referrer: "no-referrer" };

/** Plain text with its http(s) addresses as links. */
function withLinks(text: string): ReactNode[] {
  return text.split(/(https?:\/\/[^\s<>"')]+)/g).map((part, i) =>
    i % 2 === 1 ? (
      <a key={i} href={part} className="font-semibold break-all text-blue-800 underline">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

export default function DevMailboxPage() {
  if (!config().devMailbox) notFound();
  const mails = readMailbox();
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Development mailbox</h1>
        <p className="text-sm text-gray-700">
          Mail this development server would have sent: nothing leaves the machine. The newest 50 are kept in{" "}
          <code>.data/dev-mailbox</code>.{" "}
          <Link href="/dev/mailbox" className="font-semibold text-blue-800 underline">
            Refresh
          </Link>
        </p>
      </div>
      {mails.length === 0 ? (
        <p className="rounded-md border border-gray-200 bg-white p-4 text-sm text-gray-700">No mail yet.</p>
      ) : (
        <ol className="space-y-4" aria-label="Mails, newest first">
          {mails.map((mail) => (
            <li key={mail.id}>
              <article
                aria-labelledby={`mail-${mail.id}`}
                className="space-y-2 rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
              >
                <h2 id={`mail-${mail.id}`} className="text-base font-semibold break-words">
                  {mail.subject}
                </h2>
                <p className="text-sm text-gray-700">
                  To <span className="break-all">{mail.to.join(", ")}</span> ·{" "}
                  <time dateTime={mail.receivedAt}>{mail.receivedAt.replace("T", " ").slice(0, 19)} UTC</time>
                </p>
                <div className="text-sm break-words whitespace-pre-wrap text-gray-900">
                  {withLinks(mail.text)}
                </div>
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
