/**
 * Whether an element is near the viewport (or near the visible part of a scrolling `root`, e.g. a
 * dialog). Returns a ref callback for the element and the flag. With `once`, the flag stays true
 * after the first time: for content rendered on demand, which should not disappear when scrolled past.
 * Without IntersectionObserver (very old browsers) the element counts as near.
 */
import { useCallback, useEffect, useState } from "react";

export interface NearViewportOptions {
  /** The scrolling ancestor; the viewport when omitted. */
  root?: Element | null;
  /** How far outside the visible area still counts as near. */
  rootMargin?: string;
  once?: boolean;
}

export function useNearViewport({ root = null, rootMargin = "600px 0px", once = false }: NearViewportOptions = {}) {
  const [node, setNode] = useState<Element | null>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");

  useEffect(() => {
    if (!node || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver(
      (entries) => {
        const intersecting = entries.some((e) => e.isIntersecting);
        if (once && !intersecting) return;
        setNear(intersecting);
        if (once) io.disconnect();
      },
      { root, rootMargin },
    );
    io.observe(node);
    return () => io.disconnect();
  }, [node, root, rootMargin, once]);

  const ref = useCallback((el: Element | null) => setNode(el), []);
  return [ref, near] as const;
}
