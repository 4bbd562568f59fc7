/**
 * "Similar products" and "Frequently bought together" blocks (blocks/similar-products.liquid,
 * blocks/bought-together.liquid; assets/fd-recommendations.js): cards for the page's product from
 * `GET /shopify/companion/similar/{id}` (attributes and visual similarity) and
 * `GET /recommendations/frequently-bought-together/{id}` (co-purchases, complementary types).
 *
 * Both lists answer an empty list for an unknown product (SPEC §8). An empty or failed list hides
 * the block on the storefront (a product page should not show an empty shelf); in the theme editor
 * it says why instead.
 */
import { companionSimilar, recommendationsFrequentlyBoughtTogether } from "virtual:fd-api-routes";
import type { ProductCard } from "~/contract/products";
import { blockClient } from "./lib/api";
import { intSetting, readCommonSettings } from "./lib/block-settings";
import { renderGrid, skeletonGrid } from "./lib/cards";
import { el, inThemeEditor, mountAll, textOf } from "./lib/dom";

const ROOT_SELECTOR = ".fd-recommendations";
const mounted = new WeakSet<HTMLElement>();

export type RecommendationKind = "similar" | "bought-together";

export function parseKind(raw: string | undefined): RecommendationKind {
  return raw === "bought-together" ? "bought-together" : "similar";
}

function mount(root: HTMLElement): void {
  if (mounted.has(root)) return;
  mounted.add(root);
  const data = { ...root.dataset };
  const settings = readCommonSettings(data, window.location.origin);
  const kind = parseKind(data.kind);
  const limit = intSetting(data.limit, 4, 2, 12);
  const t = (key: string, fallback: string) => textOf(root, key, fallback);
  const api = blockClient({ companionSimilar, recommendationsFrequentlyBoughtTogether }, settings);
  const content = root.querySelector<HTMLElement>(".fd-recommendations__content") ?? root.appendChild(el("div", "fd-recommendations__content"));

  function setState(state: "loading" | "ready" | "empty" | "error") {
    root.dataset.state = state;
    root.setAttribute("aria-busy", state === "loading" ? "true" : "false");
  }

  function hideOrExplain(state: "empty" | "error", message: string) {
    setState(state);
    if (inThemeEditor()) {
      root.hidden = false;
      content.replaceChildren(el("p", "fd-recommendations__note", message));
    } else {
      root.hidden = true;
      content.replaceChildren();
    }
  }

  async function load() {
    if (!settings.productId) {
      hideOrExplain("empty", t("noProduct", "Add this block to a product page, or choose a product in its settings."));
      return;
    }
    setState("loading");
    content.replaceChildren(skeletonGrid(limit, "fd-grid"));
    let products: ProductCard[];
    try {
      products =
        kind === "similar"
          ? (await api.companionSimilar({ params: { id: settings.productId }, query: { limit } })).results
          : (await api.recommendationsFrequentlyBoughtTogether({ params: { id: settings.productId }, query: { limit, exclude: [settings.productId] } })).results;
    } catch (error) {
      console.warn(`[fashion-blocks] ${kind} products failed`, error);
      hideOrExplain("error", t("error", "These products could not be loaded."));
      return;
    }
    products = products.filter((p) => p.id !== settings.productId).slice(0, limit);
    if (!products.length) {
      hideOrExplain("empty", t("empty", "No products to suggest for this product yet."));
      return;
    }
    setState("ready");
    root.hidden = false;
    content.replaceChildren(renderGrid(products, { className: "fd-grid", rootUrl: settings.rootUrl, proxyBase: settings.baseUrl, texts: { from: t("from", "From") } }));
    root.dataset.count = String(products.length);
  }

  void load();
}

mountAll(ROOT_SELECTOR, mount);
