import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { NODE_VERIFY_SNIPPET, SECRET_ENV_VAR } from "./snippet";

/** How a receiver checks X-Service-Signature, in Node.js; nothing secret in it. */
export function VerifySnippet() {
  return (
    <Card title="Verify signatures">
      <div className="space-y-3">
        <p className="text-sm text-gray-700">
          <code className="font-mono text-xs">
            X-Service-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;
          </code>
          , where <code className="font-mono text-xs">v1</code> is the HMAC-SHA256, keyed with the signing
          secret, of <code className="font-mono text-xs">&lt;t&gt;.&lt;raw body&gt;</code>. Check it on the
          raw bytes before parsing, compare in constant time, and refuse timestamps more than 300 seconds
          away. The secret comes from the environment variable{" "}
          <code className="font-mono text-xs">{SECRET_ENV_VAR}</code>; deliveries arrive at least once, so
          ignore an <code className="font-mono text-xs">eventId</code> you have already handled.
        </p>
        <div className="flex items-center justify-between gap-2">
          <span className="text-xs font-semibold tracking-wide text-gray-700 uppercase">Node.js</span>
          <CopyButton value={NODE_VERIFY_SNIPPET} label="Copy code" />
        </div>
        <pre
          tabIndex={0}
          className="overflow-x-auto rounded-md border border-gray-200 bg-gray-900 p-3 font-mono text-xs text-gray-100"
        >
          <code>{NODE_VERIFY_SNIPPET}</code>
        </pre>
      </div>
    </Card>
  );
}
