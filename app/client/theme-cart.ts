/**
 * The Online Store theme's own cart (Shopify's Ajax Cart API), for the theme app blocks (issue 15):
 * on a Shopify storefront the shopper buys through the theme's cart and checkout, not the app's,
 * so an app block's "Add to cart" posts to `/cart/add.js` and reads `/cart.js` back for the count.
 * Then it tells the theme: a `cart:refresh` event (and Dawn-style `cart:updated`) on the document
 * and the `.cart-count-bubble` count where the theme has one.
 *
 * Zod-free and without app imports, so the blocks' core-only scripts can use it. Paths are the
 * theme's `routes.cart_add_url` / `routes.cart_url` (they carry the market's locale prefix).
 */

export interface ThemeCartOptions {
  /** `routes.cart_add_url` ("/cart/add", "/fr/cart/add"); ".js" is appended. */
  cartAddUrl?: string;
  /** `routes.cart_url` ("/cart"); ".js" is appended. */
  cartUrl?: string;
  fetch?: typeof fetch;
}

/** The parts of `/cart.js` the blocks read. */
export interface ThemeCart {
  token?: string;
  item_count: number;
  total_price?: number;
  currency?: string;
  items: { id: number; variant_id?: number; quantity: number; title?: string; product_title?: string }[];
}

/** A refusal of the theme's cart (Shopify answers 422 with a `description` such as "All 2 Linen shirt - M are in your cart."). */
export class ThemeCartError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ThemeCartError";
  }
}

/** `gid://shopify/ProductVariant/123` or "123" → 123; null for anything else. */
export function numericVariantId(id: string | number): number | null {
  const s = String(id).trim();
  const m = /^(?:gid:\/\/shopify\/ProductVariant\/)?(\d{1,20})$/.exec(s);
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

const jsonUrl = (base: string | undefined, fallback: string) => `${(base ?? fallback).replace(/\/+$/, "") || fallback}.js`;

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

function failure(res: Response, body: unknown): ThemeCartError {
  const b = (body ?? {}) as { description?: unknown; message?: unknown };
  const text = typeof b.description === "string" && b.description ? b.description : typeof b.message === "string" && b.message ? b.message : `The cart answered ${res.status}`;
  return new ThemeCartError(res.status, text);
}

/** The theme's cart (`GET /cart.js`). */
export async function getThemeCart(opts: ThemeCartOptions = {}): Promise<ThemeCart> {
  const f = opts.fetch ?? fetch;
  const res = await f(jsonUrl(opts.cartUrl, "/cart"), { headers: { accept: "application/json" }, credentials: "same-origin" });
  const body = await readJson(res);
  if (!res.ok) throw failure(res, body);
  const cart = body as Partial<ThemeCart> | null;
  return { ...cart, item_count: Number(cart?.item_count ?? 0), items: Array.isArray(cart?.items) ? cart.items : [] } as ThemeCart;
}

/**
 * Adds a variant to the theme's cart (`POST /cart/add.js` with `{ items: [{ id, quantity }] }`)
 * and answers the cart after it (`GET /cart.js`): the count for the theme's header.
 */
export async function addToThemeCart(variantId: string | number, quantity = 1, opts: ThemeCartOptions = {}): Promise<ThemeCart> {
  const id = numericVariantId(variantId);
  if (id === null) throw new ThemeCartError(400, "Choose an option first");
  const q = Math.max(1, Math.min(99, Math.trunc(quantity) || 1));
  const f = opts.fetch ?? fetch;
  const res = await f(jsonUrl(opts.cartAddUrl, "/cart/add"), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "x-requested-with": "XMLHttpRequest" },
    credentials: "same-origin",
    body: JSON.stringify({ items: [{ id, quantity: q }] }),
  });
  const body = await readJson(res);
  if (!res.ok) throw failure(res, body);
  return getThemeCart(opts);
}

/** Minimal document surface, so this module needs no DOM library in tests. */
interface DocLike {
  querySelectorAll(selectors: string): ArrayLike<{ textContent: string | null; hidden?: boolean; classList?: { toggle(token: string, force?: boolean): boolean } }>;
  dispatchEvent(event: Event): boolean;
}

/**
 * Tells the theme its cart changed: `.cart-count-bubble` (Dawn and most Online Store 2.0 themes)
 * shows the count, and `cart:refresh` / `cart:updated` events on the document carry the cart for
 * themes that redraw their drawer on them.
 */
export function announceThemeCart(cart: ThemeCart, doc: DocLike = document): void {
  const bubbles = doc.querySelectorAll(".cart-count-bubble");
  for (let i = 0; i < bubbles.length; i++) {
    const el = bubbles[i];
    const target = (el as unknown as { querySelector?(s: string): { textContent: string | null } | null }).querySelector?.("span[aria-hidden='true']") ?? el;
    target.textContent = String(cart.item_count);
    if ("hidden" in el) el.hidden = cart.item_count === 0;
  }
  for (const type of ["cart:refresh", "cart:updated"]) {
    doc.dispatchEvent(new CustomEvent(type, { bubbles: true, detail: { cart, source: "fashion-discovery" } }));
  }
}
