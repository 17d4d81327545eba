import { CopyButton } from "@/components/ui/copy-button";
import { MAX_RESPONSE_BODY_TEXT } from "./format";

/** The start of a receiver's answer, wrapped (never scrolls sideways), with the truncation said. */
export function ResponseBody({
  label,
  body,
  truncated,
}: {
  label: string;
  body: string;
  truncated: boolean;
}) {
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-xs font-semibold tracking-wide text-gray-700 uppercase">{label}</span>
        {body ? <CopyButton value={body} label={`Copy ${label.toLowerCase()}`} /> : null}
      </div>
      {body ? (
        <pre
          tabIndex={0}
          className="max-h-64 overflow-y-auto rounded-md border border-gray-200 bg-white p-2 font-mono text-xs break-all whitespace-pre-wrap text-gray-900"
        >
          {body}
        </pre>
      ) : (
        <p className="text-sm text-gray-600">Empty</p>
      )}
      {truncated ? (
        <p className="text-xs text-gray-600">Truncated: only the first {MAX_RESPONSE_BODY_TEXT} are kept.</p>
      ) : null}
    </div>
  );
}

/** A delivery attempt's response body, when the receiver answered at all. */
export function AttemptResponseBody({
  attempt,
}: {
  attempt: { responseBody: string | null; responseBodyTruncated: boolean };
}) {
  if (attempt.responseBody === null) return null;
  return (
    <ResponseBody
      label="Response body"
      body={attempt.responseBody}
      truncated={attempt.responseBodyTruncated}
    />
  );
}
