/**
 * The Storefront API cart (issue 15), typed: CART_DOCUMENTS through @shopify/storefront-api-client,
 * against Shopify in production and against the local Storefront endpoint in local mode (which
 * answers the same documents from its own cart store). Isomorphic (no server imports): the server's
 * cart service, the browser storefront and the theme blocks can all use it. Built like
 * createStorefrontReader (./client): same options, same local-mode redirection through `apiUrl`.
 *
 * Errors: a transport failure (network, non-2xx) or top-level GraphQL `errors` throws a
 * StorefrontCartError naming the operation; `userErrors` and `warnings` are part of a mutation's
 * answer (a bad merchandise id, a sold-out variant) and are returned, never thrown, because the
 * caller shows them to the shopper.
 */
import type { StorefrontApiClient } from "@shopify/storefront-api-client";
import { CART_DOCUMENTS, type CartDocumentName } from "./cart-documents";
import { createStorefrontClient, moneyAmount, type StorefrontReaderOptions } from "./client";

export type StorefrontCartOptions = StorefrontReaderOptions;

export interface CartAttribute {
  key: string;
  value: string;
}
export interface CartLineInput {
  merchandiseId: string;
  quantity: number;
  attributes?: CartAttribute[];
}
export interface CartLineUpdateInput {
  id: string;
  /** Switches the line to another variant (a size change in the cart). */
  merchandiseId?: string;
  quantity?: number;
  attributes?: CartAttribute[];
}
/** Amounts with 2 decimals ("129.00"), whatever Shopify's Decimal printed ("129.0"). */
export interface SfMoney {
  amount: string;
  currencyCode: string;
}
export interface SfCartLine {
  id: string;
  quantity: number;
  attributes: CartAttribute[];
  cost: { amountPerQuantity: SfMoney; compareAtAmountPerQuantity: SfMoney | null; totalAmount: SfMoney };
  merchandise: {
    id: string;
    title: string;
    sku: string | null;
    availableForSale: boolean;
    currentlyNotInStock: boolean;
    quantityAvailable: number | null;
    price: SfMoney;
    image: { url: string; altText: string | null } | null;
    selectedOptions: { name: string; value: string }[];
    product: { id: string; title: string; handle: string; vendor: string };
  };
}
export interface SfCart {
  id: string;
  checkoutUrl: string;
  totalQuantity: number;
  note: string | null;
  createdAt: string;
  updatedAt: string;
  buyerIdentity: { email: string | null; countryCode: string | null; customerId: string | null };
  discountCodes: { code: string; applicable: boolean }[];
  cost: { subtotalAmount: SfMoney; totalAmount: SfMoney; checkoutChargeAmount: SfMoney };
  lines: SfCartLine[];
}
export interface CartUserError {
  field: string[] | null;
  message: string;
  code: string | null;
}
export interface CartWarning {
  code: string;
  message: string;
  target: string;
}
export interface CartMutationResult {
  cart: SfCart | null;
  userErrors: CartUserError[];
  warnings: CartWarning[];
}
export interface CartBuyerIdentity {
  email?: string;
  countryCode?: string;
}
export interface CartCreateInput {
  lines?: CartLineInput[];
  discountCodes?: string[];
  buyerIdentity?: CartBuyerIdentity;
  note?: string;
}

export interface StorefrontCartApi {
  /** The cart, or null when the id is unknown, forged or the cart was completed (checked out). */
  get(cartId: string): Promise<SfCart | null>;
  create(input: CartCreateInput): Promise<CartMutationResult>;
  addLines(cartId: string, lines: CartLineInput[]): Promise<CartMutationResult>;
  updateLines(cartId: string, lines: CartLineUpdateInput[]): Promise<CartMutationResult>;
  removeLines(cartId: string, lineIds: string[]): Promise<CartMutationResult>;
  /** Replaces the cart's codes (an empty list removes them all). */
  updateDiscountCodes(cartId: string, codes: string[]): Promise<CartMutationResult>;
  updateBuyerIdentity(cartId: string, identity: CartBuyerIdentity): Promise<CartMutationResult>;
  /** The underlying @shopify/storefront-api-client client. */
  client: StorefrontApiClient;
}

export class StorefrontCartError extends Error {
  constructor(
    message: string,
    readonly operation: CartDocumentName,
    readonly status: number | undefined,
    readonly graphQLErrors: { message: string; extensions?: Record<string, unknown> }[] = [],
  ) {
    super(message);
    this.name = "StorefrontCartError";
  }
}

// ---------------------------------------------------------------------------------------------
// Response shapes (what CartFields selects) and their flattening

interface RawMoney {
  amount: string;
  currencyCode: string;
}
interface RawLine {
  id: string;
  quantity: number;
  attributes: CartAttribute[];
  cost: { amountPerQuantity: RawMoney; compareAtAmountPerQuantity: RawMoney | null; totalAmount: RawMoney };
  // Merchandise is a union with one member today; an unknown member arrives as {}.
  merchandise: Partial<{
    id: string;
    title: string;
    sku: string | null;
    availableForSale: boolean;
    currentlyNotInStock: boolean;
    quantityAvailable: number | null;
    price: RawMoney;
    image: { url: string; altText: string | null } | null;
    selectedOptions: { name: string; value: string }[];
    product: { id: string; title: string; handle: string; vendor: string };
  }>;
}
interface RawCart {
  id: string;
  checkoutUrl: string;
  totalQuantity: number;
  createdAt: string;
  updatedAt: string;
  note: string | null;
  buyerIdentity: { email: string | null; countryCode: string | null; customer: { id: string } | null };
  discountCodes: { code: string; applicable: boolean }[];
  cost: { subtotalAmount: RawMoney; totalAmount: RawMoney; checkoutChargeAmount: RawMoney };
  lines: RawLinePage;
}
interface RawLinePage {
  nodes: RawLine[];
  pageInfo?: { hasNextPage: boolean; endCursor: string | null };
}
interface RawPayload {
  cart: RawCart | null;
  userErrors: { field: string[] | null; message: string; code: string | null }[];
  warnings: { code: string; message: string; target: string }[] | null;
}

const money = (m: RawMoney): SfMoney => ({ amount: moneyAmount(m.amount), currencyCode: m.currencyCode });

function flattenLine(l: RawLine): SfCartLine | null {
  const m = l.merchandise;
  if (!m || !m.id || !m.price || !m.product) return null;
  return {
    id: l.id,
    quantity: l.quantity,
    attributes: (l.attributes ?? []).map((a) => ({ key: a.key, value: a.value ?? "" })),
    cost: {
      amountPerQuantity: money(l.cost.amountPerQuantity),
      compareAtAmountPerQuantity: l.cost.compareAtAmountPerQuantity ? money(l.cost.compareAtAmountPerQuantity) : null,
      totalAmount: money(l.cost.totalAmount),
    },
    merchandise: {
      id: m.id,
      title: m.title ?? "",
      sku: m.sku || null,
      availableForSale: !!m.availableForSale,
      currentlyNotInStock: !!m.currentlyNotInStock,
      quantityAvailable: m.quantityAvailable ?? null,
      price: money(m.price),
      image: m.image ? { url: m.image.url, altText: m.image.altText ?? null } : null,
      selectedOptions: (m.selectedOptions ?? []).map((s) => ({ name: s.name, value: s.value })),
      product: { id: m.product.id, title: m.product.title, handle: m.product.handle, vendor: m.product.vendor },
    },
  };
}

export function flattenCart(c: RawCart): SfCart {
  return {
    id: c.id,
    checkoutUrl: c.checkoutUrl,
    totalQuantity: c.totalQuantity,
    note: c.note || null,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    buyerIdentity: { email: c.buyerIdentity?.email ?? null, countryCode: c.buyerIdentity?.countryCode ?? null, customerId: c.buyerIdentity?.customer?.id ?? null },
    discountCodes: (c.discountCodes ?? []).map((d) => ({ code: d.code, applicable: d.applicable })),
    cost: { subtotalAmount: money(c.cost.subtotalAmount), totalAmount: money(c.cost.totalAmount), checkoutChargeAmount: money(c.cost.checkoutChargeAmount) },
    lines: c.lines.nodes.map(flattenLine).filter((l): l is SfCartLine => !!l),
  };
}

// ---------------------------------------------------------------------------------------------

const lineInput = (l: CartLineInput) => ({ merchandiseId: l.merchandiseId, quantity: l.quantity, ...(l.attributes ? { attributes: l.attributes } : {}) });
const lineUpdateInput = (l: CartLineUpdateInput) => ({ id: l.id, ...(l.merchandiseId !== undefined ? { merchandiseId: l.merchandiseId } : {}), ...(l.quantity !== undefined ? { quantity: l.quantity } : {}), ...(l.attributes ? { attributes: l.attributes } : {}) });
const identityInput = (i: CartBuyerIdentity) => ({ ...(i.email !== undefined ? { email: i.email } : {}), ...(i.countryCode !== undefined ? { countryCode: i.countryCode } : {}) });

export function createStorefrontCartApi(opts: StorefrontCartOptions): StorefrontCartApi {
  const client = createStorefrontClient(opts);

  async function run<T>(operation: CartDocumentName, variables: Record<string, unknown>): Promise<T> {
    let res;
    try {
      res = await client.request<T>(CART_DOCUMENTS[operation], { variables });
    } catch (error) {
      throw new StorefrontCartError(`Storefront ${operation} failed: ${error instanceof Error ? error.message : String(error)}`, operation, undefined);
    }
    if (res.errors) {
      const e = res.errors;
      let graphQLErrors = (e.graphQLErrors ?? []) as StorefrontCartError["graphQLErrors"];
      // A non-2xx answer (a document that fails validation → 400) carries its errors in the body.
      if (!graphQLErrors.length && e.response && !e.response.ok) {
        try {
          const body = (await e.response.clone().json()) as { errors?: StorefrontCartError["graphQLErrors"] | string };
          // Shopify answers a bad token (401) or an outage with `{"errors": "<sentence>"}`, not a list.
          graphQLErrors = typeof body.errors === "string" ? [{ message: body.errors }] : Array.isArray(body.errors) ? body.errors : [];
        } catch {
          /* not JSON */
        }
      }
      const detail = graphQLErrors.map((g) => g.message).join("; ");
      const base = `Storefront ${operation} failed: ${e.message ?? "Storefront API error"}`;
      throw new StorefrontCartError(detail ? `${base}: ${detail}` : base, operation, e.networkStatusCode, graphQLErrors);
    }
    if (res.data == null) throw new StorefrontCartError(`Storefront ${operation} failed: no data in the answer`, operation, undefined);
    return res.data as T;
  }

  /** A cart with more lines than one page holds: the rest, page by page (Shopify allows 500). */
  async function withAllLines(raw: RawCart): Promise<RawCart> {
    let page = raw.lines;
    const nodes = [...page.nodes];
    for (let i = 0; page.pageInfo?.hasNextPage && page.pageInfo.endCursor && i < 20; i++) {
      const data = await run<{ cart: { lines: RawLinePage } | null }>("CartLinesPage", { id: raw.id, after: page.pageInfo.endCursor });
      if (!data.cart) break;
      page = data.cart.lines;
      nodes.push(...page.nodes);
    }
    return { ...raw, lines: { nodes } };
  }

  async function mutate(operation: Exclude<CartDocumentName, "CartById">, field: string, variables: Record<string, unknown>): Promise<CartMutationResult> {
    const data = await run<Record<string, RawPayload | null>>(operation, variables);
    const payload = data[field];
    if (!payload) throw new StorefrontCartError(`Storefront ${operation} failed: no ${field} payload in the answer`, operation, undefined);
    return {
      cart: payload.cart ? flattenCart(await withAllLines(payload.cart)) : null,
      userErrors: (payload.userErrors ?? []).map((u) => ({ field: u.field ?? null, message: u.message, code: u.code ?? null })),
      warnings: (payload.warnings ?? []).map((w) => ({ code: w.code, message: w.message, target: w.target })),
    };
  }

  return {
    client,
    async get(cartId) {
      const data = await run<{ cart: RawCart | null }>("CartById", { id: cartId });
      return data.cart ? flattenCart(await withAllLines(data.cart)) : null;
    },
    create(input) {
      return mutate("CartCreate", "cartCreate", {
        input: {
          ...(input.lines ? { lines: input.lines.map(lineInput) } : {}),
          ...(input.discountCodes ? { discountCodes: input.discountCodes } : {}),
          ...(input.buyerIdentity ? { buyerIdentity: identityInput(input.buyerIdentity) } : {}),
          ...(input.note !== undefined ? { note: input.note } : {}),
        },
      });
    },
    addLines: (cartId, lines) => mutate("CartLinesAdd", "cartLinesAdd", { cartId, lines: lines.map(lineInput) }),
    updateLines: (cartId, lines) => mutate("CartLinesUpdate", "cartLinesUpdate", { cartId, lines: lines.map(lineUpdateInput) }),
    removeLines: (cartId, lineIds) => mutate("CartLinesRemove", "cartLinesRemove", { cartId, lineIds }),
    updateDiscountCodes: (cartId, codes) => mutate("CartDiscountCodesUpdate", "cartDiscountCodesUpdate", { cartId, discountCodes: codes }),
    updateBuyerIdentity: (cartId, identity) => mutate("CartBuyerIdentityUpdate", "cartBuyerIdentityUpdate", { cartId, buyerIdentity: identityInput(identity) }),
  };
}
