/**
 * The product-feed app block in the browser (built to assets/fashion-blocks.js, an IIFE exposing
 * `window.FashionBlocks`). Every `.fd-product-feed` on the page gets a grid of product cards,
 * fetched with the app's typed client through the App Proxy.
 *
 * API data only ever reaches the page through textContent and attribute setters (no innerHTML).
 */
import { createApiClient } from "~/client";
import type { ProductCard } from "~/contract";
import { feedQuery, readFeedSettings, toCardModel, type CardModel, type FeedSettings } from "./feed-model";

const ROOT_SELECTOR = ".fd-product-feed";
const mounted = new WeakMap<HTMLElement, { reload(): Promise<void> }>();

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function pageLocale(): string | undefined {
  const lang = document.documentElement.lang?.trim();
  if (lang) {
    try {
      return Intl.getCanonicalLocales(lang)[0];
    } catch {
      /* not a valid tag: the browser's default */
    }
  }
  return undefined;
}

function renderCard(card: CardModel, texts: FeedSettings["texts"]): HTMLLIElement {
  const li = el("li", card.available ? "fd-card" : "fd-card fd-card--sold-out");
  const link = el("a", "fd-card__link");
  link.href = card.href;

  const media = el("div", "fd-card__media");
  if (card.image) {
    const img = el("img", "fd-card__image");
    img.src = card.image.src;
    img.alt = card.image.alt;
    img.loading = "lazy";
    img.decoding = "async";
    img.width = 600;
    img.height = 800;
    media.append(img);
  } else {
    media.classList.add("fd-card__media--empty");
  }
  link.append(media);

  const body = el("div", "fd-card__body");
  if (card.vendor) body.append(el("p", "fd-card__vendor", card.vendor));
  body.append(el("h3", "fd-card__title", card.title));
  if (card.price) body.append(el("p", "fd-card__price", card.priceFrom ? `${texts.from} ${card.price}` : card.price));
  link.append(body);
  li.append(link);

  if (card.swatches.length) {
    const swatches = el("ul", "fd-card__swatches");
    swatches.setAttribute("aria-hidden", "true");
    for (const hex of card.swatches) {
      const sw = el("li", "fd-card__swatch");
      sw.style.backgroundColor = hex; // validated hex (normaliseHex)
      sw.title = hex;
      swatches.append(sw);
    }
    if (card.moreSwatches > 0) swatches.append(el("li", "fd-card__swatch-more", `+${card.moreSwatches}`));
    body.append(swatches);
  }
  return li;
}

function skeleton(count: number): HTMLUListElement {
  const grid = el("ul", "fd-product-feed__grid fd-product-feed__grid--loading");
  grid.setAttribute("aria-hidden", "true");
  for (let i = 0; i < count; i++) {
    const li = el("li", "fd-card fd-card--skeleton");
    li.append(el("div", "fd-card__media"), el("div", "fd-card__line"), el("div", "fd-card__line fd-card__line--short"));
    grid.append(li);
  }
  return grid;
}

/** Mounts (or re-mounts) one block; returns a handle to reload it. */
export function mountProductFeed(root: HTMLElement, opts: { fetch?: typeof fetch } = {}): { reload(): Promise<void> } {
  const existing = mounted.get(root);
  if (existing) return existing;

  const settings = readFeedSettings({ ...root.dataset }, window.location.origin);
  const api = createApiClient({ baseUrl: settings.baseUrl, apiPrefix: "/api", fetch: opts.fetch, credentials: "same-origin" });
  const locale = pageLocale();
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
    content.replaceChildren(skeleton(Math.min(settings.limit, 8)));
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
    const grid = el("ul", "fd-product-feed__grid");
    for (const p of products) grid.append(renderCard(toCardModel(p, { rootUrl: settings.rootUrl, pageOrigin: window.location.origin, locale }), settings.texts));
    content.replaceChildren(grid);
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

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => init(), { once: true });
  else init();
  // The theme editor re-renders sections and blocks in place.
  document.addEventListener("shopify:section:load", (event) => init(event.target instanceof HTMLElement ? event.target : document));
}
