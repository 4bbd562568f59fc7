/**
 * The title, description and canonical path of the storefront's pages, as text. The server writes
 * them into the index.html it answers (app/services/seo.server.ts) and the storefront's pages set
 * the same in the browser when a shopper moves between pages inside the app
 * (storefront/src/lib/use-page-meta.ts), so both read them from here. Pure: no server modules.
 */
export const SITE_NAME = "Fashion Discovery";
export const DEFAULT_DESCRIPTION = "Discover fashion from independent stores and try it on your AI clone.";
/** Descriptions are cut to what result pages show. */
export const DESCRIPTION_MAX = 160;

export interface PageText {
  title: string;
  description: string;
  /** Path of the canonical address (no query string); null for pages without one (index.html's defaults). */
  canonicalPath: string | null;
  /** Tell crawlers not to index (a search, an unknown product or store). */
  noindex?: boolean;
}

/** Text of at most `max` characters, cut at a word with an ellipsis; whitespace collapsed. */
export function clip(text: string, max = DESCRIPTION_MAX): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const at = cut.lastIndexOf(" ");
  return `${(at > max * 0.6 ? cut.slice(0, at) : cut).replace(/[\s,.;:–-]+$/, "")}…`;
}

/** What index.html says of a page it does not describe. */
export const DEFAULT_PAGE_TEXT: PageText = { title: SITE_NAME, description: DEFAULT_DESCRIPTION, canonicalPath: null };

/** `Menswear` → `Menswear · Fashion Discovery`. */
export const titled = (title: string) => `${title} · ${SITE_NAME}`;

/** A page of its own that index.html does not describe (the account pages): its title and the default description. */
export function plainPageText(title: string): PageText {
  return { title: titled(title), description: DEFAULT_DESCRIPTION, canonicalPath: null };
}

const HOME_PATHS = new Set(["/", "/mens", "/womens"]);

const STATIC_PAGES = new Map<string, Omit<PageText, "canonicalPath">>(Object.entries({
  "/": { title: `${SITE_NAME}: fashion from independent stores`, description: DEFAULT_DESCRIPTION },
  "/mens": { title: titled("Menswear"), description: "Menswear from independent stores: new arrivals picked for you, to save, try on and buy." },
  "/womens": { title: titled("Womenswear"), description: "Womenswear from independent stores: new arrivals picked for you, to save, try on and buy." },
  "/stores": { title: titled("Stores"), description: "Independent fashion stores to follow: featured stores and what each one sells." },
  "/mens/stores": { title: titled("Menswear stores"), description: "Independent stores selling menswear: featured stores and what each one sells." },
  "/womens/stores": { title: titled("Womenswear stores"), description: "Independent stores selling womenswear: featured stores and what each one sells." },
  "/drops": { title: titled("Upcoming drops"), description: "Upcoming drops from independent stores: what arrives when, and an email when it does." },
  "/photo-search": { title: titled("Search with a photo"), description: "Upload a photo and find products that look like it." },
  "/assistant": { title: titled("Assistant"), description: "Ask the style assistant for products, outfits and ideas." },
}));

/** A search on a home path (`/?search=black jeans`): not indexed, canonical to the home path. */
export function searchPageText(pathname: string, term: string): PageText {
  const t = clip(term, 60);
  return { title: titled(`Search: ${t}`), description: `Products matching “${t}” from independent stores.`, canonicalPath: pathname, noindex: true };
}

/**
 * The text of a page that needs no data: home and the gender pages (or a search on them), the
 * stores pages, drops, photo search and the assistant; null for any other address.
 */
export function staticPageText(pathname: string, search: URLSearchParams = new URLSearchParams()): PageText | null {
  const clean = pathname.replace(/\/+$/, "") || "/";
  const term = (search.get("search") ?? "").trim();
  if (term && HOME_PATHS.has(clean)) return searchPageText(clean, term);
  const page = STATIC_PAGES.get(clean);
  return page ? { ...page, canonicalPath: clean } : null;
}

export interface ProductTextInput {
  title: string;
  /** The vendor, else the store's name; empty when neither is known. */
  brand: string;
  description: string | null;
  productType: string | null;
  /** The lowest variant price, a decimal ("40" or "40.00"), and its currency. */
  priceMin: string;
  currencyCode: string;
  /** The product's address (`/products/1001/denim-shorts`). */
  path: string;
}

/** A product page: `Linen Shirt by Northwind`, its description (or a line made of its facts). */
export function productPageText(p: ProductTextInput): PageText {
  const from = `${Number(p.priceMin).toFixed(2)} ${p.currencyCode}`;
  const facts = `${p.title}${p.brand ? ` by ${p.brand}` : ""}${p.productType ? `, ${p.productType.toLowerCase()}` : ""}, from ${from}.`;
  return { title: titled(p.brand ? `${p.title} by ${p.brand}` : p.title), description: clip(p.description || facts), canonicalPath: p.path };
}

/** A store page: its name, and its description or an invitation to shop it. */
export function storePageText(s: { name: string; description: string | null; path: string }): PageText {
  return { title: titled(s.name), description: clip(s.description || `Shop ${s.name} on ${SITE_NAME}: new arrivals, reviews and what shoppers save.`), canonicalPath: s.path };
}

/** The address of a product or store that shoppers cannot see. */
export function notFoundPageText(what: "Product" | "Store", path: string): PageText {
  return { title: titled(`${what} not found`), description: DEFAULT_DESCRIPTION, canonicalPath: path, noindex: true };
}
