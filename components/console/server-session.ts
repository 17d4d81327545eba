// Server-side session lookup for console pages (cookies from next/headers), and the `[env]`
// segment that the console's and the back-office's layouts share.
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { readSessionCookie } from "@/lib/auth/console/credential";
import { loadConsoleMember, WORKSPACE_COOKIE, type ConsoleMember } from "@/lib/console/session-member";
import { kysely } from "@/lib/db/client";
import { parseEnvironment, type TEnvironment } from "@/lib/environments";

/** The props of a layout below `/{console|operator}/[env]/`. */
export interface TEnvironmentLayoutProps {
  children: ReactNode;
  params: Promise<{ env: string }>;
}

/** The `[env]` segment of a console or back-office URL; an unknown one is the 404 page. */
export async function environmentParam(params: Promise<{ env: string }>): Promise<TEnvironment> {
  const env = parseEnvironment((await params).env);
  if (!env) notFound();
  return env;
}

export async function currentSession() {
  return readSessionCookie((await headers()).get("cookie"));
}

/** The signed-in member for a console page, or a redirect to the sign-in page. */
export async function requireConsoleMember(
  environment: TEnvironment,
  returnTo: string,
): Promise<ConsoleMember> {
  const claims = await currentSession();
  const back = `/?callbackUrl=${encodeURIComponent(returnTo)}`;
  if (!claims) redirect(back);
  const member = await loadConsoleMember(kysely(), {
    session: claims,
    workspaceId: (await cookies()).get(WORKSPACE_COOKIE)?.value,
    environment,
  });
  // an operator without a workspace belongs in the back-office
  if (!member && claims.operatorExpiresAt !== undefined) redirect(`/operator/${environment}/activations`);
  if (!member) redirect(`${back}&expired=1`);
  return member;
}
