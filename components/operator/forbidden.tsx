// The back-office's answer to everyone who is not an operator (the layout renders it instead of the page).
import { ShieldAlert } from "lucide-react";
import Link from "next/link";
import { AuthFrame } from "@/components/console/auth-frame";

export function OperatorForbidden({ message, consoleHref }: { message: string; consoleHref: string | null }) {
  return (
    <AuthFrame title="403 · Operators only">
      <div className="space-y-3 text-sm text-gray-800" data-testid="operator-forbidden">
        <p className="flex items-start gap-2">
          <ShieldAlert aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-red-700" />
          <span>The back-office is for the people who run this service. {message}.</span>
        </p>
        <p>
          <Link
            href="/?expired=1&callbackUrl=%2Foperator%2Fsandbox%2Factivations"
            className="font-semibold text-blue-800 underline"
          >
            Sign in as an operator
          </Link>
        </p>
        {consoleHref ? (
          <p>
            <a href={consoleHref} className="font-semibold text-blue-800 underline">
              Go to the console
            </a>
          </p>
        ) : null}
      </div>
    </AuthFrame>
  );
}
