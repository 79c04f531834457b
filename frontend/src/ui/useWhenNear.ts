/**
 * Calls `onNear` when the element the returned ref is given comes near to being seen in its
 * scrolling ancestor (an IntersectionObserver on a sentinel), and again each time it is enabled
 * while still near. Where the browser has no IntersectionObserver it does nothing: callers keep
 * a button for the same action.
 */
import { useEffect, useEffectEvent, useRef, type RefObject } from "react";

/** How far ahead of being seen counts as near. */
const AHEAD = "300px";

function scrollingAncestor(element: Element): Element | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === "auto" || overflowY === "scroll") return node;
  }
  return null; // the page itself
}

export function useWhenNear<T extends Element>(onNear: () => void, enabled: boolean): RefObject<T | null> {
  const target = useRef<T>(null);
  const near = useEffectEvent(onNear);
  useEffect(() => {
    const element = target.current;
    if (!enabled || !element || typeof IntersectionObserver === "undefined") return;
    // A new observer reports at once whether the element is near: a page that did not fill
    // the view asks for the next without waiting for a scroll.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) near();
      },
      { root: scrollingAncestor(element), rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);
  return target;
}
