// Server-side check of every back-office page: an operator's live session, or the 403 page.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { hasSessionCookie, readSessionCookie, resolveSessionOperator } from "@/lib/auth/console/credential";
import { kysely } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";
import type { OperatorInfo } from "./context";
import type { TEnv } from "@/components/console/api";

export type OperatorAccess =
  | { kind: "operator"; info: OperatorInfo }
  | { kind: "forbidden"; message: string; consoleHref: string | null };

/**
 * The operator for a back-office page. Without a session: a redirect to the sign-in page (back
 * here afterwards); an ended one says so there. Anyone signed in but not an operator: forbidden.
 */
export async function requireOperator(env: TEnv, returnTo: string): Promise<OperatorAccess> {
  const cookie = (await headers()).get("cookie");
  const claims = await readSessionCookie(cookie);
  const back = `/?callbackUrl=${encodeURIComponent(returnTo)}`;
  if (!claims) redirect(hasSessionCookie(cookie) ? `${back}&expired=1` : back);
  try {
    const operator = await resolveSessionOperator(kysely(), claims);
    return {
      kind: "operator",
      info: {
        env,
        user: { id: operator.userId, email: operator.email, name: operator.name },
        hasWorkspace: operator.memberships > 0,
      },
    };
  } catch (err) {
    if (err instanceof ApiError && err.code === "INVALID_SESSION") redirect(`${back}&expired=1`);
    if (err instanceof ApiError && err.code === "RESOURCE_FORBIDDEN") {
      return { kind: "forbidden", message: err.message, consoleHref: `/console/${env}/dashboard` };
    }
    throw err;
  }
}
