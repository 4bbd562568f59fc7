/**
 * Infinite scroll: calls `onLoadMore` when a sentinel element comes near the viewport (or near the
 * bottom of a scrolling `root`, e.g. a dialog). Returns a ref callback for the sentinel.
 * While the sentinel stays visible after a page arrived (a short page), it asks again.
 */
import { useEffect, useRef } from "react";
import { useNearViewport } from "./use-near-viewport";

export interface InfiniteScrollOptions {
  /** Whether more can be loaded now (has a next page, not fetching, no error). */
  enabled: boolean;
  onLoadMore: () => void;
  /** The scrolling ancestor; the viewport when omitted. */
  root?: Element | null;
  /** How far ahead to start loading. */
  rootMargin?: string;
}

export function useInfiniteScroll({ enabled, onLoadMore, root = null, rootMargin = "600px 0px" }: InfiniteScrollOptions) {
  const [ref, visible] = useNearViewport({ root, rootMargin });
  const load = useRef(onLoadMore);
  load.current = onLoadMore;

  useEffect(() => {
    if (enabled && visible) load.current();
  }, [enabled, visible]);

  return ref;
}
