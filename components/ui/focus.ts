"use client";
/**
 * Keyboard focus that would be lost with the control holding it: when `state` changes and the
 * focused control went away with the change (a "Cancel" or "Fail" button that the new state no
 * longer has: the browser then leaves focus on <body>), focus moves to `target` (the page's
 * heading, with tabIndex -1), so a keyboard user goes on from where the action happened rather
 * than from the top of the page. Nothing happens on the first render.
 */
import { useEffect, useRef, type RefObject } from "react";

export function useFocusWhenLost(target: RefObject<HTMLElement | null>, state: unknown): void {
  const seen = useRef(state);
  useEffect(() => {
    if (Object.is(seen.current, state)) return;
    seen.current = state;
    const active = document.activeElement;
    if (active === null || active === document.body) target.current?.focus();
  }, [state, target]);
}
