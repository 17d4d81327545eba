import { ApiRequestError, errorMessage } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";

/**
 * The message of an error as the Team and invitation pages show it: the API's own sentence for
 * answers about the request (LAST_OWNER, INVITATION_INVALID, ALREADY_MEMBER…), with the request
 * id only for server failures, where support needs it.
 */
export function teamMessage(error: unknown): string {
  if (error instanceof ApiRequestError && error.status < 500) return error.message;
  return errorMessage(error);
}

/** FormError whose long words (emails, ids) wrap inside the box at 360 px; nothing when no message. */
export function TeamError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div className="break-words">
      <FormError message={message} />
    </div>
  );
}

/** A Team read that failed: its message (as teamMessage words it) and "Try again". */
export function TeamQueryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="space-y-2">
      <TeamError message={teamMessage(error)} />
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
