/**
 * Product cards and grids, shared by the product feed, the recommendation blocks and the photo
 * search (the card model is feed-model.ts's toCardModel).
 */
import type { ProductCard } from "~/contract/products";
import { toCardModel, type CardModel } from "../feed-model";
import { el, pageLocale } from "./dom";

export function renderCard(card: CardModel, texts: { from: string }): HTMLLIElement {
  const li = el("li", card.available ? "fd-card" : "fd-card fd-card--sold-out");
  li.dataset.productId = card.id;
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
    if (card.image.srcset && card.image.sizes) {
      img.srcset = card.image.srcset;
      img.sizes = card.image.sizes;
    }
    if (card.image.sources?.length) {
      // <picture>: the browser takes the first format it can decode (AVIF, then WebP, then the original).
      const picture = el("picture", "fd-card__picture");
      for (const s of card.image.sources) {
        const source = el("source");
        source.type = s.type;
        source.srcset = s.srcset;
        source.sizes = card.image.sizes ?? "";
        picture.append(source);
      }
      picture.append(img);
      media.append(picture);
    } else media.append(img);
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

/** A grid of product cards linking to the store's product pages. */
export function renderGrid(
  products: readonly ProductCard[],
  opts: { className: string; rootUrl: string; proxyBase: string; texts: { from: string } },
): HTMLUListElement {
  const grid = el("ul", opts.className);
  const locale = pageLocale();
  for (const p of products) {
    grid.append(renderCard(toCardModel(p, { rootUrl: opts.rootUrl, pageOrigin: window.location.origin, locale, proxyBase: opts.proxyBase }), opts.texts));
  }
  return grid;
}

export function skeletonGrid(count: number, className: string): HTMLUListElement {
  const grid = el("ul", `${className} ${className}--loading`);
  grid.setAttribute("aria-hidden", "true");
  for (let i = 0; i < count; i++) {
    const li = el("li", "fd-card fd-card--skeleton");
    li.append(el("div", "fd-card__media"), el("div", "fd-card__line"), el("div", "fd-card__line fd-card__line--short"));
    grid.append(li);
  }
  return grid;
}
