"use client";
/** A read that failed: the API's message and "Try again" (the one shape every console page uses). */
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { errorMessage } from "./api";

export function QueryError({
  error,
  onRetry,
  message,
}: {
  error: unknown;
  onRetry: () => void;
  message?: string;
}) {
  return (
    <div className="space-y-2">
      <FormError message={message ?? errorMessage(error)} />
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
