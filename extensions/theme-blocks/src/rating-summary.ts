/**
 * Product rating summary block (blocks/rating-summary.liquid, assets/fd-rating-summary.js): the
 * stars, the average and the number of approved reviews of the page's product
 * (`GET /product-reviews/product/{id}/summary`, null when there is none: "No reviews yet"),
 * linking to the reviews block on the page. Kept apart from the reviews block's script, which
 * carries the photo compression, so a summary near the product title costs a few kilobytes.
 */
import { reviewsProductSummary } from "virtual:fd-api-routes";
import { blockClient } from "./lib/api";
import { boolSetting, readCommonSettings } from "./lib/block-settings";
import { el, mountAll, pageLocale, textOf } from "./lib/dom";
import { countText, formatRating, renderStars } from "./lib/stars";

const ROOT_SELECTOR = ".fd-rating-summary";
/** The reviews block's anchor (blocks/product-reviews.liquid). */
export const REVIEWS_ANCHOR = "#fashion-reviews";
const mounted = new WeakSet<HTMLElement>();

function mount(root: HTMLElement): void {
  if (mounted.has(root)) return;
  mounted.add(root);
  const data = { ...root.dataset };
  const settings = readCommonSettings(data, window.location.origin);
  const showWhenEmpty = boolSetting(data.showWhenEmpty, true);
  const t = (key: string, fallback: string) => textOf(root, key, fallback);
  const locale = pageLocale();
  const api = blockClient({ reviewsProductSummary }, settings);
  if (!settings.productId) return;
  root.dataset.state = "loading";

  api
    .reviewsProductSummary({ params: { id: settings.productId } })
    .then((summary) => {
      const link = el("a", "fd-rating-summary__link");
      link.href = REVIEWS_ANCHOR;
      if (!summary || summary.count === 0) {
        root.dataset.state = "empty";
        root.dataset.count = "0";
        if (!showWhenEmpty) {
          root.hidden = true;
          return;
        }
        link.textContent = t("write", "Write a review");
        root.replaceChildren(el("span", "fd-rating-summary__none", t("none", "No reviews yet")), link);
        return;
      }
      root.dataset.state = "ready";
      root.dataset.count = String(summary.count);
      root.dataset.average = String(summary.average);
      link.textContent = countText(summary.count, t("countOne", "1 review"), t("count", "{number} reviews"), locale);
      link.className = "fd-rating-summary__count";
      root.replaceChildren(
        renderStars(summary.average, t("starsLabel", "Rated {rating} out of 5"), locale),
        el("span", "fd-rating-summary__average", formatRating(summary.average, locale)),
        link,
      );
    })
    .catch((error) => {
      // A summary that cannot load is left out rather than shown broken.
      console.warn("[fashion-blocks] rating summary failed", error);
      root.dataset.state = "error";
      root.hidden = true;
    });
}

mountAll(ROOT_SELECTOR, mount);
