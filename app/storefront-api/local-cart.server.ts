/**
 * The local cart store (embedded default, issue 15): what Shopify keeps for a Storefront cart,
 * kept in the app database (local_carts, local_cart_lines) and served through the local
 * Storefront endpoint (local-endpoint.server.ts, the GraphQL layer), plus what the local checkout
 * needs: `readLocalCart` (the priced cart), `completeLocalCart` (the cart became an order) and
 * `lockLocalCart` (hold off cart mutations inside the checkout's transaction).
 *
 * Behaviour follows Shopify's cart:
 * - Ids: `gid://shopify/Cart/<token>?key=<secret>`; a cart is only found with its key (the id is a
 *   bearer secret) and only while not completed. Lines: `gid://shopify/CartLine/<uuid>?cart=<token>`.
 * - Merchandise is a variant of a product shoppers can see; a line whose product is later hidden
 *   or whose variant is deleted is left out of reads and totals.
 * - The same variant with the same attributes merges into one line.
 * - Stock: adding a sold-out variant adds nothing (warning MERCHANDISE_OUT_OF_STOCK); asking more
 *   than is left caps the quantity (warning MERCHANDISE_NOT_ENOUGH_STOCK). Lowering a quantity is
 *   always allowed (refresh-cart flags lines over stock).
 * - A mutation with a user error changes nothing; the cart is answered as it was.
 * - Prices are read live from the catalogue on every read, so a price change shows at once.
 *
 * Mutations on one cart run one at a time (an advisory lock on the cart token): two adds at once
 * both land, and the same variant added twice at once merges into one line with both quantities.
 */
import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { lockItem, serialisedPerItem, type Tx } from "~/db/item-lock.server";
import { visibleProductWhere } from "~/lib/visibility";
import { applyLocalDiscounts } from "./local-discounts";

/** Shopify's limit (CART_TOO_LARGE beyond it). */
export const LOCAL_CART_MAX_LINES = 500;
export const LOCAL_CART_MAX_LINE_QUANTITY = 99_999;
export const LOCAL_CART_MAX_DISCOUNT_CODES = 10;
export const LOCAL_CART_MAX_NOTE_LENGTH = 5_000;
const MAX_ATTRIBUTES = 50;
const MAX_ATTRIBUTE_LENGTH = 1_000;
const MAX_CODE_LENGTH = 255;
const MAX_INPUT_LINES = 250;

type Client = Db | Tx;

// ---------------------------------------------------------------------------------------------
// Ids

export interface CartRef {
  token: string;
  key: string;
}

const CART_GID = /^gid:\/\/shopify\/Cart\/([A-Za-z0-9_-]{8,64})\?key=([A-Za-z0-9_-]{16,128})$/;
const LINE_GID = /^gid:\/\/shopify\/CartLine\/([0-9a-f-]{36})\?cart=([A-Za-z0-9_-]{8,64})$/;

export const cartGid = (ref: CartRef) => `gid://shopify/Cart/${ref.token}?key=${ref.key}`;
export const cartLineGid = (lineId: string, token: string) => `gid://shopify/CartLine/${lineId}?cart=${token}`;

export function parseCartGid(id: string): CartRef | null {
  const m = CART_GID.exec(id);
  return m ? { token: m[1], key: m[2] } : null;
}
export function parseCartLineGid(id: string): { lineId: string; token: string } | null {
  const m = LINE_GID.exec(id);
  return m ? { lineId: m[1], token: m[2] } : null;
}

/** One lock per cart: its mutations and its completion run one at a time. */
const cartLockKey = (token: string) => `local-cart:${token}`;

const hashKey = (key: string) => crypto.createHash("sha256").update(key).digest("hex");

function keyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashKey(key), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

// ---------------------------------------------------------------------------------------------
// Outcomes

/** Codes are CartErrorCode / CartWarningCode values of the Storefront schema. */
export interface LocalCartUserError {
  field: string[] | null;
  message: string;
  code: "INVALID" | "INVALID_MERCHANDISE_LINE" | "CART_TOO_LARGE" | "MAXIMUM_EXCEEDED" | "NOTE_TOO_LONG" | "LESS_THAN";
}
export interface LocalCartWarning {
  code: "MERCHANDISE_OUT_OF_STOCK" | "MERCHANDISE_NOT_ENOUGH_STOCK";
  message: string;
  target: string;
}
export interface LocalCartOutcome {
  /** The cart after the mutation (as it was, when there are user errors); null when it does not exist (unknown, forged, completed). */
  state: LocalCartState | null;
  userErrors: LocalCartUserError[];
  warnings: LocalCartWarning[];
}

const NO_CART: LocalCartUserError = { field: ["cartId"], message: "The specified cart does not exist.", code: "INVALID" };
const noCart = (): LocalCartOutcome => ({ state: null, userErrors: [NO_CART], warnings: [] });

// ---------------------------------------------------------------------------------------------
// Reading

export interface LocalCartLineState {
  /** The line's gid. */
  id: string;
  variantId: string;
  productId: string;
  quantity: number;
  attributes: { key: string; value: string }[];
  unitCents: number;
  compareAtCents: number | null;
  totalCents: number;
  currencyCode: string;
  title: string;
  productTitle: string;
  productHandle: string;
  vendor: string;
  sku: string | null;
  imageUrl: string | null;
  availableForSale: boolean;
  /** What is in stock now. */
  quantityAvailable: number;
}

export interface LocalCartState {
  /** The cart's gid (with its key). */
  id: string;
  token: string;
  note: string | null;
  email: string | null;
  countryCode: string | null;
  currencyCode: string;
  createdAt: Date;
  updatedAt: Date;
  discountCodes: { code: string; applicable: boolean }[];
  appliedDiscountCode: string | null;
  subtotalCents: number;
  discountCents: number;
  /** subtotal − discount: what the shopper pays before shipping and taxes. */
  totalCents: number;
  totalQuantity: number;
  lines: LocalCartLineState[];
}

/** Cents as a 2-decimal amount ("12.50"). */
export const centsToAmount = (cents: number) => (cents / 100).toFixed(2);
const toCents = (d: Prisma.Decimal | number) => Math.round(Number(d) * 100);

type CartRow = Prisma.LocalCartGetPayload<{ include: { lines: true } }>;
/** What pricing needs of a cart: its row and its lines (stored, or as a mutation leaves them). */
type CartShape = Omit<CartRow, "lines"> & { lines: { id: string; variant_id: string; quantity: number; attributes: Prisma.JsonValue }[] };

async function openCartRow(db: Client, ref: CartRef): Promise<CartRow | null> {
  const row = await db.localCart.findUnique({ where: { id: ref.token }, include: { lines: { orderBy: [{ position: "asc" }, { created_at: "asc" }] } } });
  if (!row || row.completed_at || !keyMatches(ref.key, row.key_hash)) return null;
  return row;
}

const variantSelect = {
  id: true,
  title: true,
  sku: true,
  price: true,
  compareAtPrice: true,
  currencyCode: true,
  availableForSale: true,
  inventory_quantity: true,
  image_url: true,
  product_id: true,
  product: { select: { title: true, handle: true, vendor: true, featuredImageUrl: true } },
} satisfies Prisma.ProductVariantSelect;
type VariantInfo = Prisma.ProductVariantGetPayload<{ select: typeof variantSelect }>;

/** Variants shoppers can see, by id. */
async function visibleVariants(db: Client, ids: string[], now: Date): Promise<Map<string, VariantInfo>> {
  if (!ids.length) return new Map();
  const rows = await db.productVariant.findMany({ where: { id: { in: [...new Set(ids)] }, product: visibleProductWhere(now) }, select: variantSelect });
  return new Map(rows.map((r) => [r.id, r]));
}

/** What a shopper may still get of a variant: 0 when sold out. */
const availableOf = (v: VariantInfo) => (v.availableForSale && v.inventory_quantity > 0 ? v.inventory_quantity : 0);

function attributesOf(json: Prisma.JsonValue): { key: string; value: string }[] {
  if (!Array.isArray(json)) return [];
  return (json as unknown[])
    .filter((a): a is { key?: unknown; value?: unknown } => !!a && typeof a === "object" && !Array.isArray(a))
    .map((a) => ({ key: String(a.key ?? ""), value: String(a.value ?? "") }));
}

function stateOf(row: CartShape, ref: CartRef, variants: Map<string, VariantInfo>): LocalCartState {
  const lines: LocalCartLineState[] = [];
  for (const l of row.lines) {
    const v = variants.get(l.variant_id);
    if (!v) continue;
    const unitCents = toCents(v.price);
    lines.push({
      id: cartLineGid(l.id, row.id),
      variantId: v.id,
      productId: v.product_id,
      quantity: l.quantity,
      attributes: attributesOf(l.attributes),
      unitCents,
      compareAtCents: v.compareAtPrice != null ? toCents(v.compareAtPrice) : null,
      totalCents: unitCents * l.quantity,
      currencyCode: v.currencyCode,
      title: v.title,
      productTitle: v.product.title,
      productHandle: v.product.handle,
      vendor: v.product.vendor,
      sku: v.sku,
      imageUrl: v.image_url ?? v.product.featuredImageUrl ?? null,
      availableForSale: availableOf(v) > 0,
      quantityAvailable: Math.max(0, v.inventory_quantity),
    });
  }
  const subtotalCents = lines.reduce((s, l) => s + l.totalCents, 0);
  const discounts = applyLocalDiscounts(row.discount_codes, subtotalCents);
  return {
    id: cartGid(ref),
    token: row.id,
    note: row.note,
    email: row.email,
    countryCode: row.country_code,
    currencyCode: lines[0]?.currencyCode ?? row.currency_code,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    discountCodes: discounts.codes,
    appliedDiscountCode: discounts.appliedCode,
    subtotalCents,
    discountCents: discounts.discountCents,
    totalCents: subtotalCents - discounts.discountCents,
    totalQuantity: lines.reduce((s, l) => s + l.quantity, 0),
    lines,
  };
}

/**
 * The cart priced from the live catalogue, or null when the id is unknown, forged or completed.
 * Pass a transaction client to read it inside the checkout's transaction.
 */
export async function readLocalCart(db: Client, cartId: string, now: Date = new Date()): Promise<LocalCartState | null> {
  const ref = parseCartGid(cartId);
  if (!ref) return null;
  const row = await openCartRow(db, ref);
  if (!row) return null;
  return stateOf(row, ref, await visibleVariants(db, row.lines.map((l) => l.variant_id), now));
}

/**
 * Marks the cart completed (its order was placed): from then on it reads as absent and refuses
 * mutations, as Shopify's cart after checkout. True when this call completed it; false when it was
 * unknown, forged or already completed (so two checkouts of one cart cannot both succeed).
 */
export async function completeLocalCart(db: Client, cartId: string, now: Date = new Date()): Promise<boolean> {
  const ref = parseCartGid(cartId);
  if (!ref) return false;
  const complete = async (tx: Tx) => {
    // The cart mutations' lock: a mutation in flight finishes first, and one that waits for the
    // caller's transaction then finds the cart completed.
    await lockItem(tx, cartLockKey(ref.token));
    const row = await tx.localCart.findUnique({ where: { id: ref.token }, select: { key_hash: true, completed_at: true } });
    if (!row || row.completed_at || !keyMatches(ref.key, row.key_hash)) return false;
    const { count } = await tx.localCart.updateMany({ where: { id: ref.token, completed_at: null }, data: { completed_at: now } });
    return count === 1;
  };
  return "$transaction" in db ? db.$transaction(complete) : complete(db);
}

/**
 * Takes the cart's lock in the caller's transaction (held until it ends): no cart mutation runs
 * meanwhile, so a checkout can read the cart (readLocalCart with the same `tx`) and act on it.
 * False for an id that is not a cart id.
 */
export async function lockLocalCart(tx: Tx, cartId: string): Promise<boolean> {
  const ref = parseCartGid(cartId);
  if (!ref) return false;
  await lockItem(tx, cartLockKey(ref.token));
  return true;
}

// ---------------------------------------------------------------------------------------------
// Input checks

export interface LocalCartLineInput {
  merchandiseId: string;
  quantity?: number | null;
  attributes?: { key: string; value?: string | null }[] | null;
}
export interface LocalCartLineUpdateInput {
  id: string;
  merchandiseId?: string | null;
  quantity?: number | null;
  attributes?: { key: string; value?: string | null }[] | null;
}
export interface LocalBuyerIdentityInput {
  email?: string | null;
  countryCode?: string | null;
}
export interface LocalCartCreateInput {
  lines?: LocalCartLineInput[] | null;
  discountCodes?: string[] | null;
  buyerIdentity?: LocalBuyerIdentityInput | null;
  note?: string | null;
}

function normaliseAttributes(attrs: { key: string; value?: string | null }[] | null | undefined, field: string[], errors: LocalCartUserError[]) {
  const list = (attrs ?? []).map((a) => ({ key: a.key.trim(), value: a.value ?? "" }));
  if (list.length > MAX_ATTRIBUTES) errors.push({ field, message: `A line has at most ${MAX_ATTRIBUTES} attributes.`, code: "INVALID" });
  else if (list.some((a) => !a.key)) errors.push({ field, message: "An attribute needs a key.", code: "INVALID" });
  else if (list.some((a) => a.key.length > MAX_ATTRIBUTE_LENGTH || a.value.length > MAX_ATTRIBUTE_LENGTH)) errors.push({ field, message: `Attribute keys and values are at most ${MAX_ATTRIBUTE_LENGTH} characters.`, code: "INVALID" });
  // One value per key (the last wins), sorted: the canonical form decides which lines merge.
  const byKey = new Map(list.map((a) => [a.key, a.value]));
  const attributes = [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, value]) => ({ key, value }));
  return { attributes, key: attributes.length ? JSON.stringify(attributes.map((a) => [a.key, a.value])) : "" };
}

function checkQuantity(quantity: number, field: string[], errors: LocalCartUserError[], min: number) {
  if (!Number.isInteger(quantity) || quantity < min) errors.push({ field, message: min > 0 ? "The quantity must be at least 1." : "The quantity must be 0 or more.", code: "LESS_THAN" });
  else if (quantity > LOCAL_CART_MAX_LINE_QUANTITY) errors.push({ field, message: `The quantity must be at most ${LOCAL_CART_MAX_LINE_QUANTITY}.`, code: "MAXIMUM_EXCEEDED" });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkIdentity(identity: LocalBuyerIdentityInput, field: string[], errors: LocalCartUserError[]): { email?: string | null; country_code?: string | null } {
  const data: { email?: string | null; country_code?: string | null } = {};
  if (identity.email !== undefined) {
    const email = identity.email?.trim() || null;
    if (email && (email.length > 254 || !EMAIL.test(email))) errors.push({ field: [...field, "email"], message: "Email is invalid", code: "INVALID" });
    data.email = email;
  }
  if (identity.countryCode !== undefined) data.country_code = identity.countryCode || null;
  return data;
}

function checkCodes(codes: string[], field: string[], errors: LocalCartUserError[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of codes) {
    const code = raw.trim();
    if (!code || seen.has(code.toUpperCase())) continue;
    seen.add(code.toUpperCase());
    out.push(code);
  }
  if (out.some((c) => c.length > MAX_CODE_LENGTH)) errors.push({ field, message: `A discount code is at most ${MAX_CODE_LENGTH} characters.`, code: "INVALID" });
  if (out.length > LOCAL_CART_MAX_DISCOUNT_CODES) errors.push({ field, message: `A cart holds at most ${LOCAL_CART_MAX_DISCOUNT_CODES} discount codes.`, code: "MAXIMUM_EXCEEDED" });
  return out;
}

function checkNote(note: string | null | undefined, errors: LocalCartUserError[]) {
  if (note && note.length > LOCAL_CART_MAX_NOTE_LENGTH) errors.push({ field: ["note"], message: `The note is at most ${LOCAL_CART_MAX_NOTE_LENGTH} characters.`, code: "NOTE_TOO_LONG" });
}

const noSuchMerchandise = (id: string, field: string[]): LocalCartUserError => ({ field, message: `The merchandise with id ${id} does not exist.`, code: "INVALID" });
const items = (n: number) => `${n} ${n === 1 ? "item" : "items"}`;

// ---------------------------------------------------------------------------------------------
// Adding lines (shared by cartCreate and cartLinesAdd)

interface WorkingLine {
  id: string;
  variantId: string;
  attributesKey: string;
  attributes: { key: string; value: string }[];
  quantity: number;
  position: number;
  state: "same" | "new" | "changed";
}

function workingLines(row: CartRow | null): WorkingLine[] {
  return (row?.lines ?? []).map((l) => ({ id: l.id, variantId: l.variant_id, attributesKey: l.attributes_key, attributes: attributesOf(l.attributes), quantity: l.quantity, position: l.position, state: "same" }));
}

/**
 * Applies `inputs` to `lines` (in memory): user errors for bad input (then nothing is to be
 * written), warnings for stock. Visible lines only count toward the limit.
 */
async function planAdds(tx: Client, token: string, lines: WorkingLine[], inputs: LocalCartLineInput[], cartCurrency: string | null, now: Date, fieldPrefix: string[]) {
  const userErrors: LocalCartUserError[] = [];
  const warnings: LocalCartWarning[] = [];
  if (inputs.length > MAX_INPUT_LINES) {
    userErrors.push({ field: fieldPrefix, message: `At most ${MAX_INPUT_LINES} lines per request.`, code: "MAXIMUM_EXCEEDED" });
    return { userErrors, warnings, currency: cartCurrency, variants: undefined };
  }
  const variants = await visibleVariants(tx, [...inputs.map((i) => i.merchandiseId), ...lines.map((l) => l.variantId)], now);
  // An empty cart (nothing visible in it) takes the currency of what is added.
  let currency = lines.some((l) => variants.has(l.variantId)) ? cartCurrency : null;
  const checked = inputs.map((input, i) => {
    const field = [...fieldPrefix, String(i)];
    const quantity = input.quantity ?? 1;
    checkQuantity(quantity, [...field, "quantity"], userErrors, 1);
    const attrs = normaliseAttributes(input.attributes, [...field, "attributes"], userErrors);
    const variant = variants.get(input.merchandiseId);
    if (!variant) userErrors.push(noSuchMerchandise(input.merchandiseId, [...field, "merchandiseId"]));
    else if (currency && variant.currencyCode !== currency) userErrors.push({ field: [...field, "merchandiseId"], message: `The merchandise with id ${variant.id} is priced in ${variant.currencyCode}, the cart in ${currency}.`, code: "INVALID" });
    else currency ??= variant.currencyCode;
    return { input, quantity, attrs, variant };
  });
  if (userErrors.length) return { userErrors, warnings, currency: cartCurrency, variants };

  for (const { quantity, attrs, variant } of checked) {
    const v = variant!;
    const existing = lines.find((l) => l.variantId === v.id && l.attributesKey === attrs.key && l.quantity > 0);
    const available = availableOf(v);
    const target = existing ? cartLineGid(existing.id, token) : v.id;
    if (available <= 0) {
      warnings.push({ code: "MERCHANDISE_OUT_OF_STOCK", target, message: `The product '${v.product.title}' is already sold out.` });
      continue;
    }
    const had = existing?.quantity ?? 0;
    let want = Math.min(had + quantity, LOCAL_CART_MAX_LINE_QUANTITY);
    if (want > available) {
      want = available;
      const added = Math.max(0, want - had);
      const message =
        added > 0
          ? `Only ${items(added)} ${added === 1 ? "was" : "were"} added to your cart due to availability.`
          : `No more of '${v.product.title}' could be added: your cart already has all ${items(available)} in stock.`;
      warnings.push({ code: "MERCHANDISE_NOT_ENOUGH_STOCK", target, message });
    }
    if (existing) {
      if (want !== existing.quantity) {
        existing.quantity = want;
        if (existing.state === "same") existing.state = "changed";
      }
    } else {
      const position = lines.reduce((m, l) => Math.max(m, l.position + 1), 0);
      lines.push({ id: crypto.randomUUID(), variantId: v.id, attributesKey: attrs.key, attributes: attrs.attributes, quantity: want, position, state: "new" });
    }
  }
  const visibleCount = lines.filter((l) => variants.has(l.variantId)).length;
  if (visibleCount > LOCAL_CART_MAX_LINES) {
    userErrors.push({ field: fieldPrefix, message: `A cart holds at most ${LOCAL_CART_MAX_LINES} lines.`, code: "CART_TOO_LARGE" });
  }
  return { userErrors, warnings, currency, variants };
}

async function writeLines(tx: Tx, cartId: string, lines: WorkingLine[], removed: string[] = []) {
  if (removed.length) await tx.localCartLine.deleteMany({ where: { cart_id: cartId, id: { in: removed } } });
  for (const l of lines) {
    if (l.state === "new") {
      await tx.localCartLine.create({ data: { id: l.id, cart_id: cartId, variant_id: l.variantId, quantity: l.quantity, attributes: l.attributes, attributes_key: l.attributesKey, position: l.position } });
    } else if (l.state === "changed") {
      await tx.localCartLine.update({ where: { id: l.id }, data: { variant_id: l.variantId, quantity: l.quantity, attributes: l.attributes, attributes_key: l.attributesKey } });
    }
  }
}

interface CartWork {
  userErrors: LocalCartUserError[];
  warnings: LocalCartWarning[];
  /** The lines after the change (default: unchanged). */
  lines?: WorkingLine[];
  /** Cart fields the change sets. */
  patch?: { discount_codes?: string[]; email?: string | null; country_code?: string | null; currency_code?: string };
  /** Visible variants already loaded for these lines (saves a query). */
  variants?: Map<string, VariantInfo>;
}

/**
 * Runs `work` on an open cart under its lock and answers the cart as the change leaves it (priced
 * from the variants read inside the lock, so no second read). Unknown, forged or completed cart:
 * a user error. A user error from `work`: nothing is written, the cart is answered as it was.
 */
async function onCart(db: Db, cartId: string, now: Date, work: (tx: Tx, row: CartRow) => Promise<CartWork>): Promise<LocalCartOutcome> {
  const ref = parseCartGid(cartId);
  if (!ref) return noCart();
  return serialisedPerItem(db, cartLockKey(ref.token), async (tx) => {
    const row = await openCartRow(tx, ref);
    if (!row) return noCart();
    const r = await work(tx, row);
    if (r.userErrors.length) {
      const variants = r.variants ?? (await visibleVariants(tx, row.lines.map((l) => l.variant_id), now));
      return { state: stateOf(row, ref, variants), userErrors: r.userErrors, warnings: [] };
    }
    const updated = await tx.localCart.update({ where: { id: row.id }, data: { ...r.patch, updated_at: new Date() } });
    const lines = (r.lines ?? workingLines(row)).filter((l) => l.quantity > 0);
    const variants = r.variants ?? (await visibleVariants(tx, lines.map((l) => l.variantId), now));
    const shape: CartShape = { ...updated, lines: lines.map((l) => ({ id: l.id, variant_id: l.variantId, quantity: l.quantity, attributes: l.attributes })) };
    return { state: stateOf(shape, ref, variants), userErrors: [], warnings: r.warnings };
  });
}

// ---------------------------------------------------------------------------------------------
// Mutations

export async function createLocalCart(db: Db, input: LocalCartCreateInput, now: Date = new Date()): Promise<LocalCartOutcome> {
  const userErrors: LocalCartUserError[] = [];
  const identity = checkIdentity(input.buyerIdentity ?? {}, ["input", "buyerIdentity"], userErrors);
  const codes = checkCodes(input.discountCodes ?? [], ["input", "discountCodes"], userErrors);
  checkNote(input.note, userErrors);
  const ref: CartRef = { token: crypto.randomBytes(18).toString("base64url"), key: crypto.randomBytes(24).toString("base64url") };
  const lines: WorkingLine[] = [];
  return db.$transaction(async (tx) => {
    const plan = await planAdds(tx, ref.token, lines, input.lines ?? [], null, now, ["input", "lines"]);
    userErrors.push(...plan.userErrors);
    // As on Shopify, a create with a user error creates nothing.
    if (userErrors.length) return { state: null, userErrors, warnings: [] };
    const created = await tx.localCart.create({
      data: {
        id: ref.token,
        key_hash: hashKey(ref.key),
        note: input.note || null,
        email: identity.email ?? null,
        country_code: identity.country_code ?? null,
        // An empty cart prices in the store's currency (the catalogue's), as Shopify's does.
        currency_code: plan.currency ?? (await tx.productVariant.findFirst({ where: { product: visibleProductWhere(now) }, select: { currencyCode: true } }))?.currencyCode,
        discount_codes: codes,
      },
    });
    await writeLines(tx, ref.token, lines);
    const shape: CartShape = { ...created, lines: lines.map((l) => ({ id: l.id, variant_id: l.variantId, quantity: l.quantity, attributes: l.attributes })) };
    return { state: stateOf(shape, ref, plan.variants ?? new Map()), userErrors: [], warnings: plan.warnings };
  });
}

export function addLocalCartLines(db: Db, cartId: string, inputs: LocalCartLineInput[], now: Date = new Date()): Promise<LocalCartOutcome> {
  return onCart(db, cartId, now, async (tx, row) => {
    const lines = workingLines(row);
    const plan = await planAdds(tx, row.id, lines, inputs, row.currency_code, now, ["lines"]);
    if (plan.userErrors.length) return { userErrors: plan.userErrors, warnings: [], variants: plan.variants };
    await writeLines(tx, row.id, lines);
    return { userErrors: [], warnings: plan.warnings, lines, variants: plan.variants, patch: plan.currency && plan.currency !== row.currency_code ? { currency_code: plan.currency } : undefined };
  });
}

export function updateLocalCartLines(db: Db, cartId: string, updates: LocalCartLineUpdateInput[], now: Date = new Date()): Promise<LocalCartOutcome> {
  return onCart(db, cartId, now, async (tx, row) => {
    const userErrors: LocalCartUserError[] = [];
    const warnings: LocalCartWarning[] = [];
    if (updates.length > MAX_INPUT_LINES) return { userErrors: [{ field: ["lines"], message: `At most ${MAX_INPUT_LINES} lines per request.`, code: "MAXIMUM_EXCEEDED" }], warnings };
    const lines = workingLines(row);
    const variants = await visibleVariants(tx, [...lines.map((l) => l.variantId), ...updates.flatMap((u) => (u.merchandiseId ? [u.merchandiseId] : []))], now);
    const checked = updates.map((u, i) => {
      const field = ["lines", String(i)];
      const parsed = parseCartLineGid(u.id);
      const line = parsed && parsed.token === row.id ? lines.find((l) => l.id === parsed.lineId && variants.has(l.variantId)) : undefined;
      if (!line) userErrors.push({ field: [...field, "id"], message: `The merchandise line with id ${u.id} does not exist.`, code: "INVALID_MERCHANDISE_LINE" });
      if (u.quantity != null) checkQuantity(u.quantity, [...field, "quantity"], userErrors, 0);
      const attrs = u.attributes != null ? normaliseAttributes(u.attributes, [...field, "attributes"], userErrors) : null;
      const variant = u.merchandiseId ? variants.get(u.merchandiseId) : line ? variants.get(line.variantId) : undefined;
      if (u.merchandiseId && !variant) userErrors.push(noSuchMerchandise(u.merchandiseId, [...field, "merchandiseId"]));
      else if (u.merchandiseId && variant && variant.currencyCode !== row.currency_code) userErrors.push({ field: [...field, "merchandiseId"], message: `The merchandise with id ${variant.id} is priced in ${variant.currencyCode}, the cart in ${row.currency_code}.`, code: "INVALID" });
      return { u, line, attrs, variant };
    });
    if (new Set(checked.map((c) => c.line?.id)).size !== checked.length && !userErrors.length) {
      userErrors.push({ field: ["lines"], message: "A line may be updated once per request.", code: "INVALID" });
    }
    if (userErrors.length) return { userErrors, warnings: [], variants };

    const removed: string[] = [];
    for (const { u, line: l, attrs, variant } of checked) {
      const line = l!;
      const v = variant!;
      const target = cartLineGid(line.id, row.id);
      let quantity = u.quantity ?? line.quantity;
      if (quantity === 0) {
        removed.push(line.id);
        line.quantity = 0;
        continue;
      }
      const switched = v.id !== line.variantId;
      // Lowering is always allowed; more (or another variant) is checked against stock.
      if (switched || quantity > line.quantity) {
        const available = availableOf(v);
        const floor = switched ? 0 : line.quantity;
        if (available <= 0) {
          warnings.push({ code: "MERCHANDISE_OUT_OF_STOCK", target, message: `The product '${v.product.title}' is already sold out.` });
          if (switched) continue;
          quantity = line.quantity;
        } else if (quantity > available) {
          quantity = Math.max(available, floor);
          warnings.push({ code: "MERCHANDISE_NOT_ENOUGH_STOCK", target, message: `Only ${items(quantity)} of '${v.product.title}' ${quantity === 1 ? "is" : "are"} in your cart due to availability.` });
        }
      }
      line.variantId = v.id;
      line.quantity = quantity;
      if (attrs) {
        line.attributes = attrs.attributes;
        line.attributesKey = attrs.key;
      }
      if (line.state === "same") line.state = "changed";
    }
    // A line now identical to another (same variant and attributes) merges into the earlier one.
    const live = lines.filter((l) => l.quantity > 0 && !removed.includes(l.id));
    for (const [i, line] of live.entries()) {
      const twin = live.slice(0, i).find((o) => o.variantId === line.variantId && o.attributesKey === line.attributesKey && !removed.includes(o.id));
      if (!twin) continue;
      twin.quantity = Math.min(twin.quantity + line.quantity, LOCAL_CART_MAX_LINE_QUANTITY);
      if (twin.state === "same") twin.state = "changed";
      removed.push(line.id);
      line.state = "same";
    }
    const kept = lines.filter((l) => !removed.includes(l.id));
    await writeLines(tx, row.id, kept, removed);
    return { userErrors: [], warnings, lines: kept, variants };
  });
}

export function removeLocalCartLines(db: Db, cartId: string, lineIds: string[], now: Date = new Date()): Promise<LocalCartOutcome> {
  return onCart(db, cartId, now, async (tx, row) => {
    const userErrors: LocalCartUserError[] = [];
    const ids: string[] = [];
    for (const [i, id] of lineIds.entries()) {
      const parsed = parseCartLineGid(id);
      const line = parsed && parsed.token === row.id ? row.lines.find((l) => l.id === parsed.lineId) : undefined;
      if (!line) userErrors.push({ field: ["lineIds", String(i)], message: `The merchandise line with id ${id} does not exist.`, code: "INVALID_MERCHANDISE_LINE" });
      else ids.push(line.id);
    }
    if (userErrors.length) return { userErrors, warnings: [] };
    await tx.localCartLine.deleteMany({ where: { cart_id: row.id, id: { in: ids } } });
    return { userErrors: [], warnings: [], lines: workingLines(row).filter((l) => !ids.includes(l.id)) };
  });
}

export function updateLocalCartDiscountCodes(db: Db, cartId: string, discountCodes: string[], now: Date = new Date()): Promise<LocalCartOutcome> {
  return onCart(db, cartId, now, async () => {
    const userErrors: LocalCartUserError[] = [];
    const codes = checkCodes(discountCodes, ["discountCodes"], userErrors);
    return { userErrors, warnings: [], patch: { discount_codes: codes } };
  });
}

export function updateLocalCartBuyerIdentity(db: Db, cartId: string, identity: LocalBuyerIdentityInput, now: Date = new Date()): Promise<LocalCartOutcome> {
  return onCart(db, cartId, now, async () => {
    const userErrors: LocalCartUserError[] = [];
    const patch = checkIdentity(identity, ["buyerIdentity"], userErrors);
    return { userErrors, warnings: [], patch };
  });
}
