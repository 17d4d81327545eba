/** The environment segment of every OP route; anything else is 404. */
import { parseEnvironment, type TEnvironment } from "@/lib/environments";

export type TOidcContext = { params: Promise<Record<string, string | string[]>> };

export async function oidcEnvironment(context: TOidcContext): Promise<TEnvironment | undefined> {
  const { env } = await context.params;
  return typeof env === "string" ? parseEnvironment(env) : undefined;
}

export function notFoundResponse(): Response {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
