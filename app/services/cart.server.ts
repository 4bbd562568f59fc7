/**
 * The shopper's cart (SPEC §3 User.cart_id, §7 Users: refresh-cart; issue 15).
 *
 * The cart itself lives in a Storefront API (Shopify's in production, the local Storefront-compatible
 * endpoint in the embedded default), reached through `StorefrontCartApi`; the app only keeps its id
 * on the user, so it follows the shopper across devices. Every answer is the contract's `Cart`.
 *
 * Decisions worth knowing:
 * - Price seen at add: each line carries a hidden attribute `_price_seen` ("49.00 EUR"; keys with a
 *   leading underscore are hidden at Shopify checkout) stamped, in the add itself, with the price
 *   the storefront showed (the catalogue read model's; the Storefront's price when the read model
 *   lacks the variant). A line whose current Storefront price differs shows PRICE_CHANGED until
 *   refresh-cart reports it (action "flagged") and re-stamps the attribute, so a change is reported
 *   by one refresh only. Adding the same variant again re-stamps too: the shopper saw the new price.
 * - One line per variant: Shopify splits lines whose attributes differ, so a line added with another
 *   stamp (the price changed between two adds) is folded into the variant's existing line.
 * - One cart per user: a user's cart operations run one after another in this process, and the
 *   cart id is stored with a conditional update (`cart_id IS NULL`), so two first adds racing on
 *   two servers also end in one cart (the loser adds its line to the winner's cart).
 * - A cart id the Storefront no longer knows (expired, or completed at checkout) is forgotten and
 *   the shopper gets an empty cart (the next add starts a new one).
 * - Sign-in merge: the guest's cart (the one being filled in this browser) is kept and becomes the
 *   account's; the account's earlier cart lines are added to it (same variant: quantities summed),
 *   so nothing is lost and the cart the shopper was looking at stays the one they check out.
 * - Buyer identity: a cart gets the user's email only once the email is verified.
 * Storefront calls never run inside a database transaction: in local mode the Storefront is this
 * app's database, and on the one-connection embedded database a transaction would wait for itself.
 */
import type { User } from "@prisma/client";
import type { Db } from "~/db.server";
import type { Cart, CartLine, CartLineIssueCode } from "~/contract/cart";
import { CART_MAX_LINE_QUANTITY } from "~/contract/cart";
import type { Logger } from "~/lib/logger.server";
import { bumpProductDay } from "./vendor-stats/daily-stats.server";
import { DomainError, conflictError, failedError, invalid, notFoundError, unavailable, unprocessableError } from "~/lib/domain-errors";
import {
  StorefrontCartError,
  type CartLineInput,
  type CartLineUpdateInput,
  type CartMutationResult,
  type CartUserError,
  type CartWarning,
  type SfCart,
  type SfCartLine,
  type SfMoney,
  type StorefrontCartApi,
} from "~/storefront-api/cart-client";

/**
 * Who acts: the request's user row (read at authentication, moments ago, so its cart_id is used as
 * is when no other cart call of the user is in flight), or just an id (then the row is read).
 */
export type CartCaller = Pick<User, "id"> & Partial<Pick<User, "cart_id" | "email" | "email_verified_at">>;

export interface CartDeps {
  db: Db;
  cart: StorefrontCartApi;
  log?: Logger;
}

/** The hidden line attribute holding the price the shopper saw when adding the line. */
export const PRICE_SEEN_ATTRIBUTE = "_price_seen";

export const CartMessages = {
  VARIANT_NOT_FOUND: "Product variant not found",
  SOLD_OUT: "This item is sold out",
  LINE_NOT_FOUND: "Cart line not found",
  UNAVAILABLE: "The cart is unavailable right now, please try again",
} as const;

type CartWarningOut = Cart["warnings"][number];
type CartChange = {
  lineId: string;
  variantId: string;
  title: string;
  code: CartLineIssueCode;
  action: "removed" | "reduced" | "flagged";
  message: string;
  previousQuantity: number | null;
  quantity: number | null;
  previousPrice: SfMoney | null;
  price: SfMoney | null;
};

export const emptyCart = (warnings: CartWarningOut[] = []): Cart => ({
  id: null,
  checkoutUrl: null,
  totalQuantity: 0,
  lines: [],
  discountCodes: [],
  subtotal: null,
  total: null,
  warnings,
});

// ---------------------------------------------------------------------------------------------
// Reads

export async function getCart(deps: CartDeps, user: CartCaller): Promise<Cart> {
  const owner = await ownerOf(deps.db, user, !queues.has(user.id));
  if (!owner.cart_id) return emptyCart();
  const sf = await readCart(deps, owner.id, owner.cart_id);
  return sf ? toCart(sf) : emptyCart();
}

// ---------------------------------------------------------------------------------------------
// Changes

export async function addLine(deps: CartDeps, user: CartCaller, input: { merchandiseId: string; quantity: number }): Promise<Cart> {
  return perUser(user.id, async (first) => {
    const [owner, shown] = await Promise.all([ownerOf(deps.db, user, first), shownPrice(deps.db, input.merchandiseId)]);
    // Stamped in the add itself, so an add is one Storefront call (a line of the same variant with
    // the same stamp merges into it); without a catalogue price the line is stamped afterwards.
    const lines = [{ merchandiseId: input.merchandiseId, quantity: input.quantity, ...(shown ? { attributes: withPriceSeen([], shown) } : {}) }];
    const { cartId, result } = await mutateOrCreate(deps, owner, (id) => deps.cart.addLines(id, lines), { lines });
    throwUserErrors(result);
    const warnings = [...result.warnings];
    if (warnings.some((w) => w.code === "MERCHANDISE_OUT_OF_STOCK")) throw conflictError(CartMessages.SOLD_OUT);
    let sf = cartOf(result);
    if (!sf.lines.some((l) => l.merchandise.id === input.merchandiseId)) {
      // Nothing was added and no warning said why: the Storefront would not sell it.
      throw conflictError(CartMessages.SOLD_OUT);
    }
    const settled = await settleVariant(deps, cartId, sf, input.merchandiseId, shown);
    sf = settled.cart;
    warnings.push(...settled.warnings);
    sf = await ensureBuyerIdentity(deps, owner, sf);
    // Units asked for: the vendor stats' add-to-carts (the store may have lowered the line to its stock).
    const productId = sf.lines.find((l) => l.merchandise.id === input.merchandiseId)?.merchandise.product.id;
    // A statistic never costs the shopper their add: a failed count is logged, the cart answered.
    if (productId) {
      await bumpProductDay(deps.db, { productId, at: new Date(), delta: { addToCarts: input.quantity } }).catch((err: unknown) =>
        deps.log?.warn({ err, productId }, "add-to-cart not counted in the vendor stats")
      );
    }
    return toCart(sf, lineWarnings(sf, warnings));
  });
}

export async function updateLine(deps: CartDeps, user: CartCaller, lineId: string, quantity: number): Promise<Cart> {
  if (quantity === 0) return removeLine(deps, user, lineId);
  return perUser(user.id, async (first) => {
    const { cartId, line } = await findOwnLine(deps, await ownerOf(deps.db, user, first), lineId);
    const result = await sf(() => deps.cart.updateLines(cartId, [{ id: line.id, quantity }]), "update the cart");
    throwUserErrors(result);
    const cart = cartOf(result);
    return toCart(cart, lineWarnings(cart, result.warnings));
  });
}

export async function removeLine(deps: CartDeps, user: CartCaller, lineId: string): Promise<Cart> {
  return perUser(user.id, async (first) => {
    const { cartId, line } = await findOwnLine(deps, await ownerOf(deps.db, user, first), lineId);
    const result = await sf(() => deps.cart.removeLines(cartId, [line.id]), "update the cart");
    throwUserErrors(result);
    return toCart(cartOf(result));
  });
}

/** Replaces the cart's discount codes; codes that do not apply stay on the cart (as on Shopify) with a warning. */
export async function updateDiscountCodes(deps: CartDeps, user: CartCaller, codes: string[]): Promise<Cart> {
  const unique = [...new Map(codes.map((c) => [c.trim().toUpperCase(), c.trim()])).values()].filter(Boolean);
  return perUser(user.id, async (first) => {
    const owner = await ownerOf(deps.db, user, first);
    // Removing codes from a cart that does not exist yet changes nothing.
    if (!owner.cart_id && unique.length === 0) return emptyCart();
    const { result } = await mutateOrCreate(deps, owner, (id) => deps.cart.updateDiscountCodes(id, unique), { discountCodes: unique });
    throwUserErrors(result);
    const cart = cartOf(result);
    const asked = new Set(unique.map((c) => c.toUpperCase()));
    const warnings: CartWarningOut[] = cart.discountCodes
      .filter((d) => !d.applicable && asked.has(d.code.toUpperCase()))
      .map((d) => ({ code: "DISCOUNT_CODE_NOT_APPLICABLE", message: `Code ${d.code} does not apply to your cart` }));
    return toCart(cart, warnings);
  });
}

/**
 * Re-reads the cart and repairs it: sold-out lines are removed, lines above the stock left are
 * reduced to it, and lines whose price changed since they were added are flagged and the new price
 * acknowledged (re-stamped), so the next refresh does not report the same change again. The
 * answered cart still shows the flagged lines' PRICE_CHANGED issue, for the page that asked.
 */
export async function refreshCart(deps: CartDeps, user: CartCaller): Promise<{ cart: Cart; changes: CartChange[] }> {
  return perUser(user.id, async (first) => {
    const owner = await ownerOf(deps.db, user, first);
    if (!owner.cart_id) return { cart: emptyCart(), changes: [] };
    const cartId = owner.cart_id;
    let cart = await readCart(deps, owner.id, cartId);
    if (!cart) return { cart: emptyCart(), changes: [] };

    const changes: CartChange[] = [];
    const remove: string[] = [];
    const updates: CartLineUpdateInput[] = [];
    const flaggedSeen = new Map<string, SfMoney>();
    for (const line of cart.lines) {
      const m = line.merchandise;
      const base = { lineId: line.id, variantId: m.id, title: lineTitle(line) };
      if (!m.availableForSale) {
        remove.push(line.id);
        changes.push({ ...base, code: "SOLD_OUT", action: "removed", message: `${base.title} sold out and was removed from your cart`, previousQuantity: line.quantity, quantity: 0, previousPrice: null, price: null });
        continue;
      }
      const update: CartLineUpdateInput = { id: line.id };
      const left = stockLeft(line);
      if (left !== null && line.quantity > left) {
        update.quantity = left;
        changes.push({ ...base, code: "NOT_ENOUGH_STOCK", action: "reduced", message: `Only ${left} of ${base.title} left: the quantity was reduced to ${left}`, previousQuantity: line.quantity, quantity: left, previousPrice: null, price: null });
      }
      const seen = priceSeen(line);
      if (seen && !samePrice(seen, m.price)) {
        update.attributes = withPriceSeen(line.attributes, m.price);
        flaggedSeen.set(line.id, seen);
        changes.push({ ...base, code: "PRICE_CHANGED", action: "flagged", message: priceChangedMessage(base.title, seen, m.price), previousQuantity: line.quantity, quantity: update.quantity ?? line.quantity, previousPrice: seen, price: m.price });
      } else if (!seen) {
        // A line added elsewhere (Shopify's own cart page): its price from now on is the one seen.
        update.attributes = withPriceSeen(line.attributes, m.price);
      }
      if (update.quantity !== undefined || update.attributes) updates.push(update);
    }

    const warnings: CartWarning[] = [];
    if (remove.length) {
      const r = await sf(() => deps.cart.removeLines(cartId, remove), "refresh the cart");
      throwUserErrors(r);
      cart = cartOf(r);
    }
    const stillThere = new Set(cart.lines.map((l) => l.id));
    const pending = updates.filter((u) => stillThere.has(u.id));
    if (pending.length) {
      const r = await sf(() => deps.cart.updateLines(cartId, pending), "refresh the cart");
      throwUserErrors(r);
      cart = cartOf(r);
      warnings.push(...r.warnings);
    }
    return { cart: toCart(cart, lineWarnings(cart, warnings), flaggedSeen), changes };
  });
}

/**
 * Sign-in merge (called by users.mergeGuestIntoMe after its transaction): the guest's cart
 * `guestCartId`, now the account's, receives the lines of the account's earlier cart
 * `previousCartId` (same variant: quantities summed, up to the line maximum), and gets the
 * account's email as buyer identity when it is verified. Best effort: the caller logs failures.
 */
export async function mergeCarts(
  deps: CartDeps,
  account: Pick<User, "id" | "email" | "email_verified_at">,
  carts: { guestCartId: string; previousCartId: string | null },
): Promise<{ linesMerged: number }> {
  return perUser(account.id, async () => {
    const into = await sf(() => deps.cart.get(carts.guestCartId), "read the cart");
    const from = carts.previousCartId ? await sf(() => deps.cart.get(carts.previousCartId!), "read the cart") : null;
    if (!into) {
      // The guest's cart is gone (completed, expired): the account goes back to its earlier one if
      // that is still there; otherwise the next read forgets the id as usual.
      if (from) {
        await deps.db.user.updateMany({ where: { id: account.id, cart_id: carts.guestCartId }, data: { cart_id: from.id } });
        noteCartIdChanged(account.id);
        await ensureBuyerIdentity(deps, account, from);
      }
      return { linesMerged: 0 };
    }
    let cart = into;
    let linesMerged = 0;
    if (from && from.id !== into.id && from.lines.length) {
      const updates: CartLineUpdateInput[] = [];
      const adds: { merchandiseId: string; quantity: number; attributes: { key: string; value: string }[] }[] = [];
      for (const line of from.lines) {
        if (!line.merchandise.availableForSale) continue;
        const same = into.lines.find((l) => l.merchandise.id === line.merchandise.id);
        if (same) updates.push({ id: same.id, quantity: Math.min(CART_MAX_LINE_QUANTITY, same.quantity + line.quantity) });
        else adds.push({ merchandiseId: line.merchandise.id, quantity: line.quantity, attributes: line.attributes });
        linesMerged++;
      }
      if (adds.length) cart = cartOf(await sf(() => deps.cart.addLines(into.id, adds), "merge the carts"), cart);
      if (updates.length) cart = cartOf(await sf(() => deps.cart.updateLines(into.id, updates), "merge the carts"), cart);
    }
    await ensureBuyerIdentity(deps, account, cart);
    return { linesMerged };
  });
}

// ---------------------------------------------------------------------------------------------
// The Storefront cart → the contract's Cart

export function toCart(sf: SfCart, warnings: CartWarningOut[] = [], seenOverride?: Map<string, SfMoney>): Cart {
  const lines = sf.lines.map((l) => toLine(l, seenOverride?.get(l.id)));
  return {
    id: sf.id,
    checkoutUrl: sf.checkoutUrl,
    totalQuantity: sf.totalQuantity,
    lines,
    discountCodes: sf.discountCodes.map((d) => ({ code: d.code, applicable: d.applicable })),
    subtotal: lines.length ? sf.cost.subtotalAmount : null,
    total: lines.length ? sf.cost.totalAmount : null,
    warnings,
  };
}

function toLine(line: SfCartLine, seenOverride?: SfMoney): CartLine {
  const m = line.merchandise;
  return {
    id: line.id,
    quantity: line.quantity,
    merchandise: {
      variantId: m.id,
      productId: m.product.id,
      productHandle: m.product.handle,
      productTitle: m.product.title,
      vendor: m.product.vendor || null,
      variantTitle: m.title,
      sku: m.sku,
      image: m.image,
      selectedOptions: m.selectedOptions,
      availableForSale: m.availableForSale,
      price: m.price,
    },
    cost: line.cost,
    issue: lineIssue(line, seenOverride),
  };
}

export function lineIssue(line: SfCartLine, seenOverride?: SfMoney): CartLine["issue"] {
  const m = line.merchandise;
  if (!m.availableForSale) return { code: "SOLD_OUT", message: CartMessages.SOLD_OUT };
  const left = stockLeft(line);
  if (left !== null && line.quantity > left) return { code: "NOT_ENOUGH_STOCK", message: `Only ${left} left` };
  const seen = seenOverride ?? priceSeen(line);
  if (seen && !samePrice(seen, m.price)) return { code: "PRICE_CHANGED", message: priceChangedMessage(null, seen, m.price) };
  return null;
}

/**
 * Units left when the Storefront says (quantityAvailable needs the inventory scope). Zero while the
 * variant is still for sale means it sells beyond its stock (continue selling), so no limit.
 */
function stockLeft(line: SfCartLine): number | null {
  const left = line.merchandise.quantityAvailable;
  return left !== null && left > 0 ? left : null;
}

const formatMoney = (m: SfMoney) => `${m.amount} ${m.currencyCode}`;
const lineTitle = (l: SfCartLine) => (l.merchandise.title && l.merchandise.title !== "Default Title" ? `${l.merchandise.product.title} (${l.merchandise.title})` : l.merchandise.product.title);
const priceChangedMessage = (title: string | null, from: SfMoney, to: SfMoney) => `${title ? `The price of ${title}` : "The price"} changed from ${formatMoney(from)} to ${formatMoney(to)}`;

export function priceSeen(line: Pick<SfCartLine, "attributes">): SfMoney | null {
  const raw = line.attributes.find((a) => a.key === PRICE_SEEN_ATTRIBUTE)?.value;
  const m = raw ? /^(-?\d+(?:\.\d+)?) ([A-Z]{3})$/.exec(raw.trim()) : null;
  return m ? { amount: Number(m[1]).toFixed(2), currencyCode: m[2] } : null;
}

const samePrice = (a: SfMoney, b: SfMoney) => a.currencyCode === b.currencyCode && Number(a.amount) === Number(b.amount);

const stampOf = (price: SfMoney) => `${Number(price.amount).toFixed(2)} ${price.currencyCode}`;
const stampValue = (line: Pick<SfCartLine, "attributes">) => line.attributes.find((a) => a.key === PRICE_SEEN_ATTRIBUTE)?.value ?? null;

function withPriceSeen(attributes: { key: string; value: string }[], price: SfMoney) {
  return [...attributes.filter((a) => a.key !== PRICE_SEEN_ATTRIBUTE).map((a) => ({ key: a.key, value: a.value })), { key: PRICE_SEEN_ATTRIBUTE, value: stampOf(price) }];
}

/** The Storefront's stock warnings in the shopper's words (the rest pass through). */
function lineWarnings(cart: SfCart, warnings: CartWarning[]): CartWarningOut[] {
  const out: CartWarningOut[] = [];
  for (const w of warnings) {
    if (w.code === "MERCHANDISE_NOT_ENOUGH_STOCK") {
      const line = cart.lines.find((l) => l.id === w.target || l.merchandise.id === w.target);
      const msg = line ? `Only ${stockLeft(line) ?? line.quantity} left: the quantity was reduced to ${line.quantity}` : w.message;
      out.push({ code: "NOT_ENOUGH_STOCK", message: msg });
    } else if (w.code === "MERCHANDISE_OUT_OF_STOCK") {
      out.push({ code: "SOLD_OUT", message: CartMessages.SOLD_OUT });
    } else out.push({ code: w.code, message: w.message });
  }
  // One notice per problem: an add that is folded into an existing line may be capped twice.
  return out.filter((w, i) => out.findIndex((o) => o.code === w.code && o.message === w.message) === i);
}

// ---------------------------------------------------------------------------------------------
// Plumbing

interface Owner {
  id: string;
  cart_id: string | null;
  email: string | null;
  email_verified_at: Date | null;
}

async function loadOwner(db: Db, userId: string): Promise<Owner> {
  // Read fresh (not the request's user row): another request may have created the cart since.
  const owner = await db.user.findUnique({ where: { id: userId }, select: { id: true, cart_id: true, email: true, email_verified_at: true } });
  if (!owner) throw notFoundError("User not found");
  return owner;
}

/**
 * The caller's cart id and email: the request's row when it is current (`first`: no other cart call
 * of this user ran since it was read), else read again (a call before this one may have created
 * the cart). Another server creating the cart meanwhile is caught by the conditional store.
 */
async function ownerOf(db: Db, user: CartCaller, first: boolean): Promise<Owner> {
  if (first && !recentlyChanged(user.id) && user.cart_id !== undefined && user.email !== undefined && user.email_verified_at !== undefined) {
    return { id: user.id, cart_id: user.cart_id, email: user.email, email_verified_at: user.email_verified_at };
  }
  return loadOwner(db, user.id);
}

/**
 * Users whose cart id this process changed in the last minute: a request authenticated before the
 * change may carry the old id, so their row is read again.
 */
const cartIdChangedAt = new Map<string, number>();
const RECENT_MS = 60_000;
function noteCartIdChanged(userId: string) {
  const now = Date.now();
  cartIdChangedAt.set(userId, now);
  if (cartIdChangedAt.size > 10_000) for (const [id, at] of cartIdChangedAt) if (now - at > RECENT_MS) cartIdChangedAt.delete(id);
}
function recentlyChanged(userId: string): boolean {
  const at = cartIdChangedAt.get(userId);
  if (at === undefined) return false;
  if (Date.now() - at > RECENT_MS) {
    cartIdChangedAt.delete(userId);
    return false;
  }
  return true;
}

/**
 * A user's cart operations in this process, one after another (an add may stamp and fold lines in
 * several calls). `work` learns whether it is the first in line (nothing of this user ran meanwhile).
 */
const queues = new Map<string, Promise<unknown>>();
function perUser<T>(userId: string, work: (first: boolean) => Promise<T>): Promise<T> {
  const previous = queues.get(userId);
  const before = previous ?? Promise.resolve();
  const go = () => work(!previous);
  const run = before.then(go, go);
  const settled = run.catch(() => undefined);
  queues.set(userId, settled);
  void settled.then(() => {
    if (queues.get(userId) === settled) queues.delete(userId);
  });
  return run;
}

/** A Storefront call; transport failures become 503 with a sentence (the cause, naming `what`, stays for the log). */
async function sf<T>(call: () => Promise<T>, what: string): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof StorefrontCartError) {
      const err = unavailable(CartMessages.UNAVAILABLE);
      (err as Error & { cause?: unknown }).cause = new Error(`Could not ${what}: ${e.message}`, { cause: e });
      throw err;
    }
    throw e;
  }
}

function cartOf(r: CartMutationResult, fallback?: SfCart): SfCart {
  if (r.cart) return r.cart;
  if (fallback) return fallback;
  throwUserErrors(r);
  throw failedError("Failed to update the cart");
}

/** The cart, or null after forgetting an id the Storefront no longer knows. */
async function readCart(deps: CartDeps, userId: string, cartId: string): Promise<SfCart | null> {
  const cart = await sf(() => deps.cart.get(cartId), "read the cart");
  if (!cart) await forgetCart(deps, userId, cartId);
  return cart;
}

async function forgetCart(deps: CartDeps, userId: string, cartId: string) {
  // Conditional: a cart created meanwhile by another request is not the one being forgotten.
  await deps.db.user.updateMany({ where: { id: userId, cart_id: cartId }, data: { cart_id: null } });
  noteCartIdChanged(userId);
  deps.log?.info({ userId }, "cart no longer known to the Storefront: forgotten");
}

const cartIdGone = (r: CartMutationResult) => !r.cart && r.userErrors.some((e) => e.field?.includes("cartId"));

/**
 * Runs `onExisting` on the user's cart; without one (or when the Storefront no longer knows it)
 * creates the cart with `createInput` and stores its id, unless another request stored one first,
 * in which case `onExisting` runs on that one (its own new cart is left to expire).
 */
async function mutateOrCreate(
  deps: CartDeps,
  owner: Owner,
  onExisting: (cartId: string) => Promise<CartMutationResult>,
  createInput: { lines?: CartLineInput[]; discountCodes?: string[] },
): Promise<{ cartId: string; result: CartMutationResult }> {
  let cartId = owner.cart_id;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (cartId) {
      const existing = cartId;
      const r = await sf(() => onExisting(existing), "update the cart");
      if (!cartIdGone(r)) return { cartId: existing, result: r };
      await forgetCart(deps, owner.id, existing);
    }
    const email = verifiedEmail(owner);
    const r = await sf(() => deps.cart.create({ ...createInput, ...(email ? { buyerIdentity: { email } } : {}) }), "create the cart");
    throwUserErrors(r);
    if (!r.cart) throw failedError("Failed to create the cart");
    const stored = await deps.db.user.updateMany({ where: { id: owner.id, cart_id: null }, data: { cart_id: r.cart.id } });
    noteCartIdChanged(owner.id);
    if (stored.count === 1) return { cartId: r.cart.id, result: r };
    deps.log?.info({ userId: owner.id }, "a concurrent request created the user's cart first: using that one");
    cartId = (await loadOwner(deps.db, owner.id)).cart_id;
  }
  throw unavailable(CartMessages.UNAVAILABLE);
}

/** Storefront userErrors → domain errors (what the shopper did wrong vs what cannot be done). */
function throwUserErrors(r: CartMutationResult): void {
  const e: CartUserError | undefined = r.userErrors[0];
  if (!e) return;
  const field = (e.field ?? []).join(".");
  // By field first: Shopify's INVALID_MERCHANDISE_LINE names a cart line, a bad variant is INVALID on merchandiseId.
  if (/merchandiseId$/.test(field)) throw notFoundError(CartMessages.VARIANT_NOT_FOUND);
  if (/^lines\.\d+\.id$/.test(field) || /^lineIds/.test(field) || e.code === "INVALID_MERCHANDISE_LINE" || field === "cartId") throw notFoundError(CartMessages.LINE_NOT_FOUND);
  if (/merchandise with id/i.test(e.message)) throw notFoundError(CartMessages.VARIANT_NOT_FOUND);
  if (e.code === "MAXIMUM_EXCEEDED" || e.code === "LESS_THAN" || e.code === "INVALID_INCREMENT" || e.code === "MINIMUM_NOT_MET") throw invalid(e.message);
  throw unprocessableError(e.message);
}

function verifiedEmail(owner: Pick<Owner, "email" | "email_verified_at">): string | null {
  return owner.email && owner.email_verified_at ? owner.email : null;
}

async function findOwnLine(deps: CartDeps, owner: Owner, lineId: string): Promise<{ cartId: string; cart: SfCart; line: SfCartLine }> {
  if (!owner.cart_id) throw notFoundError(CartMessages.LINE_NOT_FOUND);
  const cart = await readCart(deps, owner.id, owner.cart_id);
  // Only a line of the caller's own cart: a line id of another cart is simply not found here.
  const line = cart?.lines.find((l) => l.id === lineId);
  if (!cart || !line) throw notFoundError(CartMessages.LINE_NOT_FOUND);
  return { cartId: owner.cart_id, cart, line };
}

/**
 * After an add: one line per variant with the price seen. A line added without a stamp gets the
 * Storefront's price; a second line of the variant (added with another stamp: the price changed
 * between two adds) is folded into the earlier one, which takes the newest stamp.
 */
async function settleVariant(deps: CartDeps, cartId: string, cart: SfCart, variantId: string, shown: SfMoney | null): Promise<{ cart: SfCart; warnings: CartWarning[] }> {
  const lines = cart.lines.filter((l) => l.merchandise.id === variantId);
  if (lines.length === 1 && priceSeen(lines[0])) return { cart, warnings: [] };
  if (!lines.length) return { cart, warnings: [] };
  const newest = shown ? stampOf(shown) : null;
  const keep = lines.find((l) => stampValue(l) !== newest) ?? lines[0];
  const folded = lines.filter((l) => l.id !== keep.id);
  const warnings: CartWarning[] = [];
  let current = cart;
  if (folded.length) {
    const r = await sf(() => deps.cart.removeLines(cartId, folded.map((l) => l.id)), "update the cart");
    throwUserErrors(r);
    current = cartOf(r, current);
  }
  const wanted = keep.quantity + folded.reduce((s, l) => s + l.quantity, 0);
  const quantity = Math.min(CART_MAX_LINE_QUANTITY, wanted);
  const update: CartLineUpdateInput = { id: keep.id, attributes: withPriceSeen(keep.attributes, shown ?? keep.merchandise.price) };
  if (quantity !== keep.quantity) update.quantity = quantity;
  const r = await sf(() => deps.cart.updateLines(cartId, [update]), "update the cart");
  throwUserErrors(r);
  if (wanted > quantity) warnings.push({ code: "LINE_QUANTITY_LIMIT", message: `At most ${CART_MAX_LINE_QUANTITY} of one item: the quantity was set to ${CART_MAX_LINE_QUANTITY}`, target: keep.id });
  warnings.push(...r.warnings);
  return { cart: cartOf(r, current), warnings };
}

/**
 * The variant's price as the storefront shows it (the catalogue read model, which the storefront's
 * pages render): the price the shopper saw when pressing "Add to cart". Null when the read model
 * does not have the variant (then the Storefront's price at add is used).
 */
async function shownPrice(db: Db, variantId: string): Promise<SfMoney | null> {
  const v = await db.productVariant.findUnique({ where: { id: variantId }, select: { price: true, currencyCode: true } });
  return v ? { amount: Number(v.price.toString()).toFixed(2), currencyCode: v.currencyCode } : null;
}

/** A verified email not yet on the cart's buyer identity is set (Shopify pre-fills checkout with it). */
async function ensureBuyerIdentity(deps: CartDeps, owner: Pick<Owner, "email" | "email_verified_at">, cart: SfCart): Promise<SfCart> {
  const email = verifiedEmail(owner);
  if (!email || cart.buyerIdentity.email === email) return cart;
  try {
    const r = await deps.cart.updateBuyerIdentity(cart.id, { email });
    if (r.userErrors.length || !r.cart) {
      deps.log?.warn({ userErrors: r.userErrors }, "cart buyer identity not set");
      return cart;
    }
    return r.cart;
  } catch (e) {
    // The cart works without it; checkout asks for the email instead.
    if (e instanceof DomainError || e instanceof StorefrontCartError) {
      deps.log?.warn({ err: e }, "cart buyer identity not set");
      return cart;
    }
    throw e;
  }
}
