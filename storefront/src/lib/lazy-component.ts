/**
 * Components loaded on demand (route-level code splitting: storefront/src/App.tsx), like
 * React.lazy, plus `preload()`: once loaded, a component renders at once, without suspending —
 * what a server render (the storefront's render tests) needs. `preloadLazyComponents()` loads
 * every one declared so far, and those their modules declare in turn.
 */
import { createElement, lazy, useState, type ComponentType } from "react";

const registry = new Set<() => Promise<void>>();

export type LazyComponent<P> = ComponentType<P> & { preload(): Promise<void> };

export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then((component) => {
      loaded = component;
    }));
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded as ComponentType<P> };
  });
  registry.add(preload);
  function Loaded(props: P) {
    // Chosen once per mount, so the element's type never changes under a mounted page.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return createElement(Component, props);
  }
  return Object.assign(Loaded, { preload });
}

/** Loads every lazy component declared so far (and those their modules declare). */
export async function preloadLazyComponents(): Promise<void> {
  const done = new Set<() => Promise<void>>();
  while (done.size < registry.size) {
    const todo = [...registry].filter((p) => !done.has(p));
    todo.forEach((p) => done.add(p));
    await Promise.all(todo.map((p) => p()));
  }
}
