"use client";
/**
 * The browser tab's title on every signed-in console page says where you are: the page, then the
 * workflow and the app when there is one, then the environment, then the product —
 * `Webhooks · Checkout · Sandbox · Identity verification console`.
 *
 * Each page's metadata gives the server's first title (the page, the environment and the
 * product: `consoleTitle` in ./titles.ts); the names the console loads through TanStack Query
 * (the app's, the workflow's) join it here once they load, and follow a rename at once since they
 * come from the same queries the pages use (no request of its own when the page has made it).
 * Next.js writes the metadata's <title> again after a client navigation, possibly after this
 * effect: an observer of <head> puts the full title back.
 */
import { useQuery } from "@tanstack/react-query";
import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { APP_TABS } from "@/components/apps/app-frame";
import { appKeys, type TApp } from "@/components/apps/queries";
import { useWorkflow } from "@/components/workflow-editor/queries";
import { api } from "./api";
import { useConsole } from "./context";
import { consoleTitle, ENV_TITLE } from "./titles";

/** Pages below `/console/{env}/`, by their first segment (the side navigation's sections). */
const SECTION_TITLES: Record<string, string> = {
  dashboard: "Dashboard",
  apps: "Apps",
  verifications: "Verifications",
  requests: "API requests",
  "api-keys": "API keys",
  team: "Team",
  "audit-log": "Audit log",
  settings: "Settings",
};

export interface TTitleRoute {
  /** the page's own name */
  page: string;
  clientId?: string;
  workflowId?: string;
}

/** What the path `/console/{env}/…` shows; null for a path this table does not know. */
export function titleRoute(pathname: string): TTitleRoute | null {
  const [, area, , section, id, tab, child] = pathname.split("/").map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  if (area !== "console" || !section) return null;
  const sectionTitle = SECTION_TITLES[section];
  if (!sectionTitle) return null;
  if (section === "verifications" && id) return { page: "Verification" };
  if (section !== "apps" || !id) return id ? null : { page: sectionTitle };
  if (!tab) return { page: "Overview", clientId: id };
  if (tab === "workflows" && child) {
    return { page: "Workflow editor", clientId: id, workflowId: child === "new" ? undefined : child };
  }
  if (tab === "webhooks" && child) return { page: "Webhook delivery", clientId: id };
  const appTab = APP_TABS.find((t) => t.path === `/${tab}`);
  return appTab && !child ? { page: appTab.label, clientId: id } : null;
}

/** Keeps `document.title` at `title` while mounted, whoever writes <title> after it. */
function useDocumentTitle(title: string | null) {
  useEffect(() => {
    if (title === null) return;
    const apply = () => {
      if (document.title !== title) document.title = title;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [title]);
}

/** Renders nothing: sets the tab's title of the console page shown (inside the console shell). */
export function ConsolePageTitle() {
  const { env } = useConsole();
  const pathname = usePathname();
  const route = titleRoute(pathname);
  const clientId = route?.clientId ?? "";
  const workflowId = route?.workflowId ?? "";
  // the app frame's query (components/apps/app-frame.tsx useApp): same key, same request
  const app = useQuery({
    queryKey: appKeys.detail(env, clientId),
    queryFn: ({ signal }) => api<TApp>(env, `/v1/apps/${encodeURIComponent(clientId)}`, { signal }),
    enabled: clientId !== "",
  });
  const workflow = useWorkflow(clientId, workflowId, clientId !== "" && workflowId !== "");
  const title = route
    ? consoleTitle(
        route.page,
        workflowId ? workflow.data?.name : undefined,
        clientId ? (app.data?.name ?? null) : undefined,
        ENV_TITLE[env],
      )
    : null;
  useDocumentTitle(title);
  return null;
}
