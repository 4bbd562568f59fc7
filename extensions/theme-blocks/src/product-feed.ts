/**
 * The product-feed app block in the browser (built to assets/fashion-blocks.js, an IIFE exposing
 * `window.FashionBlocks`). Every `.fd-product-feed` on the page gets a grid of product cards,
 * fetched with the app's typed client through the App Proxy.
 *
 * API data only ever reaches the page through textContent and attribute setters (no innerHTML).
 */
import { listProducts } from "virtual:fd-api-routes";
import type { ProductCard } from "~/contract/products";
import { feedQuery, readFeedSettings } from "./feed-model";
import { blockClient } from "./lib/api";
import { renderGrid, skeletonGrid } from "./lib/cards";
import { el, mountAll } from "./lib/dom";

const ROOT_SELECTOR = ".fd-product-feed";
const mounted = new WeakMap<HTMLElement, { reload(): Promise<void> }>();

/** Mounts (or re-mounts) one block; returns a handle to reload it. */
export function mountProductFeed(root: HTMLElement, opts: { fetch?: typeof fetch } = {}): { reload(): Promise<void> } {
  const existing = mounted.get(root);
  if (existing) return existing;

  const settings = readFeedSettings({ ...root.dataset }, window.location.origin);
  const api = blockClient({ listProducts }, settings, { fetch: opts.fetch });
  let generation = 0;

  const heading = settings.heading ? el("h2", "fd-product-feed__heading", settings.heading) : null;
  const status = el("div", "fd-product-feed__status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const content = el("div", "fd-product-feed__content");
  root.replaceChildren(...(heading ? [heading] : []), status, content);
  root.classList.add("fd-product-feed--ready");

  function setState(state: "loading" | "ready" | "empty" | "error") {
    root.dataset.state = state;
    root.setAttribute("aria-busy", state === "loading" ? "true" : "false");
  }

  async function reload(): Promise<void> {
    const mine = ++generation;
    setState("loading");
    status.className = "fd-product-feed__status fd-product-feed__status--loading";
    status.textContent = settings.texts.loading;
    content.replaceChildren(skeletonGrid(Math.min(settings.limit, 8), "fd-product-feed__grid"));
    let products: ProductCard[];
    try {
      products = (await api.listProducts({ query: feedQuery(settings) })).products;
    } catch (error) {
      if (mine !== generation) return;
      setState("error");
      status.className = "fd-product-feed__status fd-product-feed__status--error";
      status.textContent = settings.texts.error;
      const retry = el("button", "fd-product-feed__retry", settings.texts.retry);
      retry.type = "button";
      retry.addEventListener("click", () => void reload());
      content.replaceChildren(retry);
      console.warn("[fashion-blocks] product feed failed", error);
      return;
    }
    if (mine !== generation) return;
    if (!products.length) {
      setState("empty");
      status.className = "fd-product-feed__status fd-product-feed__status--empty";
      status.textContent = settings.texts.empty;
      content.replaceChildren();
      return;
    }
    setState("ready");
    status.className = "fd-product-feed__status fd-product-feed__status--ready";
    status.textContent = "";
    content.replaceChildren(renderGrid(products, { className: "fd-product-feed__grid", rootUrl: settings.rootUrl, proxyBase: settings.baseUrl, texts: settings.texts }));
  }

  const handle = { reload };
  mounted.set(root, handle);
  void reload();
  return handle;
}

/** Mounts every product-feed block under `scope` (the document by default). */
export function init(scope: ParentNode = document): void {
  const roots = scope instanceof HTMLElement && scope.matches(ROOT_SELECTOR) ? [scope] : [];
  roots.push(...Array.from(scope.querySelectorAll<HTMLElement>(ROOT_SELECTOR)));
  for (const root of roots) mountProductFeed(root);
}

// Mounts now (or when the document is parsed), and again when the theme editor re-renders a section.
mountAll(ROOT_SELECTOR, (root) => void mountProductFeed(root));
