"use client";
/**
 * Leaving with unsaved changes asks first: closing or reloading the tab gets the browser's
 * prompt, and a click on a link to another page of the console is held until "Leave" (the
 * editor's own dialog). Links that open elsewhere (new tab, download, another site) pass.
 */
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

type TClick = Pick<
  MouseEvent,
  "defaultPrevented" | "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey"
> & {
  target: EventTarget | null;
};

/**
 * Where a click would take the user when it follows a link to another page of this site
 * (path, query and hash), or null when the click is left to the browser.
 */
export function leaveTarget(e: TClick, here: Pick<Location, "href" | "origin" | "pathname">): string | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
  if (!a || a.target === "_blank" || a.hasAttribute("download")) return null;
  const url = new URL(a.href, here.href);
  if (url.origin !== here.origin || url.pathname === here.pathname) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** While `guard` holds, leaving asks; `leaveTo` is the held link's target until Stay or Leave. */
export function useLeaveGuard(guard: boolean) {
  const router = useRouter();
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  useEffect(() => {
    if (!guard) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      const to = leaveTarget(e, window.location);
      if (to === null) return;
      e.preventDefault();
      e.stopPropagation();
      setLeaveTo(to);
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
    };
  }, [guard]);
  return {
    leaveTo,
    stay: () => setLeaveTo(null),
    leave: () => {
      const to = leaveTo;
      setLeaveTo(null);
      if (to) router.push(to);
    },
  };
}
