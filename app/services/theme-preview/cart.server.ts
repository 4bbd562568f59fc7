/**
 * LOCAL MODE ONLY: the theme preview's stand-in for the Online Store's own cart (Shopify's Ajax
 * Cart API: `POST /cart/add.js`, `GET /cart.js`), so the add-to-cart block works in the preview as
 * on a store. It is a cart of the local Storefront-compatible endpoint (the same stock checks as
 * the app's cart), named by a cookie as the Online Store names its cart, and answered in the Ajax
 * Cart API's shape (prices in cents, numeric variant ids, 422 with a description when refused).
 * It is not the app's cart of the shopper: on a store the theme's cart and the app's are separate.
 */
import { z } from "zod";
import type { SfCart, StorefrontCartApi } from "~/storefront-api/cart-client";
import { gidTail } from "~/lib/gid";

export const PREVIEW_CART_COOKIE = "fd_preview_cart";

export interface AjaxLineItem {
  id: number;
  variant_id: number;
  key: string;
  quantity: number;
  title: string;
  product_title: string;
  variant_title: string | null;
  price: number;
  line_price: number;
  image: string | null;
  handle: string;
}

export interface AjaxCart {
  token: string | null;
  item_count: number;
  items: AjaxLineItem[];
  total_price: number;
  currency: string;
  requires_shipping: boolean;
}

export interface AjaxAnswer {
  status: number;
  body: unknown;
  /** The cart id to remember in the cookie (a new cart), when it changed. */
  cartId?: string;
}

const cents = (amount: string) => Math.round(Number(amount) * 100);

function lineItem(l: SfCart["lines"][number]): AjaxLineItem {
  const variantId = Number(gidTail(l.merchandise.id)) || 0;
  const variantTitle = l.merchandise.title && l.merchandise.title !== "Default Title" ? l.merchandise.title : null;
  return {
    id: variantId,
    variant_id: variantId,
    key: `${variantId}:${gidTail(l.id)}`,
    quantity: l.quantity,
    title: variantTitle ? `${l.merchandise.product.title} - ${variantTitle}` : l.merchandise.product.title,
    product_title: l.merchandise.product.title,
    variant_title: variantTitle,
    price: cents(l.cost.amountPerQuantity.amount),
    line_price: cents(l.cost.totalAmount.amount),
    image: l.merchandise.image?.url ?? null,
    handle: l.merchandise.product.handle,
  };
}

export function toAjaxCart(cart: SfCart | null): AjaxCart {
  if (!cart) return { token: null, item_count: 0, items: [], total_price: 0, currency: "USD", requires_shipping: false };
  return {
    token: gidTail(cart.id),
    item_count: cart.lines.reduce((n, l) => n + l.quantity, 0),
    items: cart.lines.map(lineItem),
    total_price: cents(cart.cost.totalAmount.amount),
    currency: cart.cost.totalAmount.currencyCode,
    requires_shipping: cart.lines.length > 0,
  };
}

const cartError = (status: number, description: string): AjaxAnswer => ({ status, body: { status, message: "Cart Error", description } });

const Item = z.object({ id: z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/)]), quantity: z.coerce.number().int().min(1).max(99).default(1) });
/** `{ items: [{ id, quantity }] }` or a single `{ id, quantity }`, as the Ajax Cart API takes. */
const AddBody = z.union([z.object({ items: z.array(Item).min(1).max(50) }), Item.transform((i) => ({ items: [i] }))]);

/** The cart the cookie names, or null (none yet, unknown, or checked out). */
export async function previewCart(api: StorefrontCartApi, cartId: string | null): Promise<SfCart | null> {
  if (!cartId) return null;
  return api.get(cartId).catch(() => null);
}

/** `POST /cart/add.js`: adds the items (stock checked by the local endpoint) and answers them as line items. */
export async function previewCartAdd(api: StorefrontCartApi, cartId: string | null, raw: unknown): Promise<AjaxAnswer> {
  const parsed = AddBody.safeParse(raw);
  if (!parsed.success) return cartError(400, "Parameter Missing or Invalid: items");
  const lines = parsed.data.items.map((i) => ({ merchandiseId: `gid://shopify/ProductVariant/${i.id}`, quantity: i.quantity }));
  const existing = await previewCart(api, cartId);
  const result = existing ? await api.addLines(existing.id, lines) : await api.create({ lines });
  const cart = result.cart;
  if (result.userErrors.length > 0 || !cart) {
    const message = result.userErrors[0]?.message ?? "The item could not be added";
    return cartError(/not exist|invalid|not found/i.test(message) ? 404 : 422, message);
  }
  const added = lines.map((l) => cart.lines.find((c) => c.merchandise.id === l.merchandiseId));
  if (added.some((l) => !l)) {
    const warning = result.warnings[0]?.message;
    return { ...cartError(422, warning ?? "This item is sold out."), cartId: existing ? undefined : cart.id };
  }
  return { status: 200, body: { items: added.map((l) => lineItem(l!)) }, cartId: existing ? undefined : cart.id };
}

/** `GET /cart.js`. */
export async function previewCartGet(api: StorefrontCartApi, cartId: string | null): Promise<AjaxAnswer> {
  return { status: 200, body: toAjaxCart(await previewCart(api, cartId)) };
}

/** The cart id of the preview's cart cookie, or null. */
export function previewCartId(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === PREVIEW_CART_COOKIE) {
      try {
        const v = decodeURIComponent(rest.join("="));
        return v.length > 0 && v.length <= 300 ? v : null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function previewCartCookie(cartId: string): string {
  return `${PREVIEW_CART_COOKIE}=${encodeURIComponent(cartId)}; Path=/theme-preview; HttpOnly; SameSite=Lax`;
}
