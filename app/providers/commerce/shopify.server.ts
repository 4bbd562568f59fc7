/**
 * The Shopify commerce adapter: the commerce port on the Admin GraphQL API of the pinned version.
 *
 * - Every operation is a named `#graphql` document from ./shopify-documents (validated against the
 *   Admin schema in tests/unit/shopify-documents.test.ts).
 * - A plain `fetch` GraphQL client (`POST https://{shop}/admin/api/{version}/graphql.json` with
 *   `X-Shopify-Access-Token`), injectable for tests.
 * - Cost-aware: every response's `extensions.cost.throttleStatus` is remembered; before a request
 *   whose cost is known (from the previous call of the same operation), the client waits until the
 *   bucket has restored enough points. THROTTLED errors, HTTP 429 and 5xx are retried with backoff.
 * - userErrors become a CommerceError carrying the messages.
 * - The whole catalogue is read with a bulk operation (JSONL assembled by `__parentId`).
 * - Scheduled publishing: `publishablePublish` on the Online Store publication with a publishDate.
 */
import type { Logger } from "~/lib/logger.server";
import { stripUnstorableDeep } from "~/lib/unstorable-text";
import {
  CommerceError,
  type CommercePort,
  type ExportOptions,
  type ImageSnapshot,
  type InventoryLevel,
  type OrderSnapshot,
  type ProductInput,
  type ProductSnapshot,
  type ReturnSnapshot,
  type ProductStatus,
  type TargetGenderValue,
  type VariantSnapshot,
} from "./port";
import * as D from "./shopify-documents";
import { planVariantChanges } from "./variant-changes";

export interface ShopifyCommerceOptions {
  /** The shop's myshopify domain, e.g. `my-shop.myshopify.com`. */
  shop: string;
  apiVersion: string | (() => Promise<string>);
  accessToken: string | (() => Promise<string>);
  fetch?: typeof fetch;
  log?: Logger;
  /** Waits (injectable so tests do not sleep). */
  sleep?: (ms: number) => Promise<void>;
  maxRetries?: number;
  /** Poll interval of a running bulk operation. */
  bulkPollMs?: number;
  /** Name of the sales channel publication used for publishing. */
  onlineStoreName?: string;
}

interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}
interface GraphQLErrorBody {
  message: string;
  extensions?: { code?: string; [k: string]: unknown };
}
interface GraphQLResponse<T> {
  data?: T;
  errors?: GraphQLErrorBody[];
  extensions?: { cost?: { requestedQueryCost?: number; actualQueryCost?: number | null; throttleStatus?: ThrottleStatus } };
}
type UserErrors = { field?: string[] | null; message: string; code?: string | null }[];

// ------------------------------------------------------------------------------------------------
// Raw shapes (what the documents select)
// ------------------------------------------------------------------------------------------------
interface RawMedia {
  id: string;
  mediaContentType?: string;
  image?: { url: string; altText: string | null; width: number | null; height: number | null } | null;
}
interface RawVariant {
  id: string;
  title: string;
  sku: string | null;
  price: string;
  compareAtPrice: string | null;
  availableForSale: boolean;
  inventoryQuantity: number | null;
  position: number;
  selectedOptions: { name: string; value: string }[];
  colorHex: { value: string } | null;
  media?: { nodes: { image?: { url: string } | null }[] };
  image?: { url: string } | null;
}
interface RawProduct {
  id: string;
  title: string;
  handle: string;
  vendor: string;
  productType: string;
  description: string;
  descriptionHtml: string;
  status: string;
  tags: string[];
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  priceRangeV2?: { minVariantPrice: { currencyCode: string } } | null;
  targetGender: { value: string } | null;
  options: { id: string; name: string; position: number; optionValues: { id: string; name: string }[] }[];
  media?: { nodes: RawMedia[] };
  variants?: { nodes: RawVariant[] };
}
interface RawOrder {
  id: string;
  name: string;
  email: string | null;
  createdAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string | null;
  customer: { id: string } | null;
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
  lineItems: { nodes: { id: string; title: string; variantTitle: string | null; quantity: number; product: { id: string } | null; variant: { id: string } | null; originalUnitPriceSet: { shopMoney: { amount: string } } }[] };
}

// ------------------------------------------------------------------------------------------------
// Mapping
// ------------------------------------------------------------------------------------------------
const money2 = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v).toFixed(2));

export function normaliseGender(v: string | null | undefined): TargetGenderValue {
  const s = (v ?? "").trim().toLowerCase();
  if (["menswear", "men", "male", "mens", "man"].includes(s)) return "menswear";
  if (["womenswear", "women", "female", "womens", "woman"].includes(s)) return "womenswear";
  return "both";
}
const toStatus = (s: string): ProductStatus => (s === "ACTIVE" ? "active" : s === "ARCHIVED" ? "archived" : "draft");
const fromStatus = (s: ProductStatus) => s.toUpperCase();

function toVariant(v: RawVariant): VariantSnapshot {
  return {
    id: v.id,
    title: v.title,
    sku: v.sku || null,
    price: money2(v.price) ?? "0.00",
    compareAtPrice: money2(v.compareAtPrice),
    availableForSale: v.availableForSale,
    inventoryQuantity: v.inventoryQuantity ?? 0,
    selectedOptions: v.selectedOptions.map((o) => ({ name: o.name, value: o.value })),
    imageUrl: v.media?.nodes.find((m) => m.image)?.image?.url ?? v.image?.url ?? null,
    colorHex: v.colorHex?.value ?? null,
    position: v.position,
  };
}

function toImages(media: RawMedia[]): ImageSnapshot[] {
  return media
    .filter((m) => m.image && (!m.mediaContentType || m.mediaContentType === "IMAGE"))
    .map((m, position) => ({ id: m.id, url: m.image!.url, altText: m.image!.altText, width: m.image!.width, height: m.image!.height, position }));
}

export function toProductSnapshot(p: RawProduct, variants?: RawVariant[], media?: RawMedia[]): ProductSnapshot {
  const vs = (variants ?? p.variants?.nodes ?? []).map(toVariant).sort((a, b) => a.position - b.position);
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    vendor: p.vendor,
    productType: p.productType,
    description: p.description,
    descriptionHtml: p.descriptionHtml,
    status: toStatus(p.status),
    tags: p.tags,
    targetGender: normaliseGender(p.targetGender?.value),
    currencyCode: p.priceRangeV2?.minVariantPrice.currencyCode ?? "USD",
    publishedAt: p.publishedAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    options: [...p.options].sort((a, b) => a.position - b.position).map((o) => ({ id: o.id, name: o.name, values: o.optionValues.map((v) => v.name), position: o.position })),
    variants: vs,
    images: toImages(media ?? p.media?.nodes ?? []),
  };
}

function toOrder(o: RawOrder): OrderSnapshot {
  return {
    id: o.id,
    name: o.name,
    email: o.email,
    customerId: o.customer?.id ?? null,
    createdAt: o.createdAt,
    cancelledAt: o.cancelledAt,
    cancelReason: o.cancelReason,
    financialStatus: o.displayFinancialStatus,
    fulfillmentStatus: o.displayFulfillmentStatus,
    totalPrice: money2(o.totalPriceSet.shopMoney.amount) ?? "0.00",
    currencyCode: o.totalPriceSet.shopMoney.currencyCode,
    lines: o.lineItems.nodes.map((l) => ({
      id: l.id,
      productId: l.product?.id ?? null,
      variantId: l.variant?.id ?? null,
      title: l.title,
      variantTitle: l.variantTitle,
      quantity: l.quantity,
      price: money2(l.originalUnitPriceSet.shopMoney.amount) ?? "0.00",
    })),
  };
}

/** The numeric part of a GID (search syntax wants `product_id:123`). */
const legacyId = (gid: string) => gid.split("/").pop()!;

/** Assembles products from a bulk operation's JSONL (children carry `__parentId`). */
export function assembleBulkProducts(jsonl: string): ProductSnapshot[] {
  const products = new Map<string, { raw: RawProduct; variants: RawVariant[]; media: RawMedia[] }>();
  const children: (Record<string, unknown> & { __parentId: string; id: string })[] = [];
  for (const line of jsonl.split("\n")) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as Record<string, unknown> & { id: string; __parentId?: string };
    if (row.__parentId) children.push(row as (typeof children)[number]);
    else products.set(row.id, { raw: row as unknown as RawProduct, variants: [], media: [] });
  }
  for (const c of children) {
    const parent = products.get(c.__parentId);
    if (!parent) continue;
    if (c.id.includes("/ProductVariant/")) parent.variants.push(c as unknown as RawVariant);
    else parent.media.push(c as unknown as RawMedia);
  }
  return [...products.values()].map((p) => toProductSnapshot(p.raw, p.variants, p.media));
}

const isHex = (h: string) => /^#[0-9a-fA-F]{6}$/.test(h);

// ------------------------------------------------------------------------------------------------
// Adapter
// ------------------------------------------------------------------------------------------------
export function createShopifyCommerce(opts: ShopifyCommerceOptions): CommercePort {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const maxRetries = opts.maxRetries ?? 5;
  const bulkPollMs = opts.bulkPollMs ?? 2000;
  const onlineStoreName = (opts.onlineStoreName ?? "Online Store").toLowerCase();
  const log = opts.log;

  const resolve = async (v: string | (() => Promise<string>)) => (typeof v === "function" ? v() : v);
  let throttle: (ThrottleStatus & { at: number }) | null = null;
  const costByOperation = new Map<string, number>();

  /** Points available now, restored since the last response at restoreRate per second. */
  const availableNow = () => (throttle ? Math.min(throttle.maximumAvailable, throttle.currentlyAvailable + ((Date.now() - throttle.at) / 1000) * throttle.restoreRate) : Infinity);

  async function waitForPoints(cost: number) {
    if (!throttle || !cost) return;
    const available = availableNow();
    if (available >= cost) return;
    const ms = Math.ceil(((Math.min(cost, throttle.maximumAvailable) - available) / Math.max(1, throttle.restoreRate)) * 1000);
    log?.debug({ cost, available, ms }, "shopify: waiting for the query cost bucket");
    await sleep(ms);
  }

  const backoff = (attempt: number) => Math.min(30_000, 500 * 2 ** attempt);

  async function gql<T>(operationName: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const [version, token] = await Promise.all([resolve(opts.apiVersion), resolve(opts.accessToken)]);
    const url = `https://${opts.shop}/admin/api/${version}/graphql.json`;
    for (let attempt = 0; ; attempt++) {
      await waitForPoints(costByOperation.get(operationName) ?? 0);
      let res: Response;
      try {
        res = await doFetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json", "x-shopify-access-token": token },
          body: JSON.stringify({ query, variables, operationName }),
        });
      } catch (e) {
        if (attempt >= maxRetries) throw new CommerceError(`Shopify is unreachable: ${(e as Error).message}`, [], 502);
        await sleep(backoff(attempt));
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        await res.body?.cancel().catch(() => undefined);
        if (attempt >= maxRetries) throw new CommerceError(`Shopify answered HTTP ${res.status} to ${operationName}`, [], res.status === 429 ? 429 : 502);
        const retryAfter = Number(res.headers.get("retry-after"));
        await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff(attempt));
        continue;
      }
      if (!res.ok) {
        const text = await res.text().catch(() => "");
        throw new CommerceError(`Shopify answered HTTP ${res.status} to ${operationName}${text ? `: ${text.slice(0, 200)}` : ""}`, [], 502);
      }
      // Shopify's text goes into our read model as it comes; PostgreSQL cannot store U+0000 or an
      // unpaired surrogate, and one such title would fail every sync and webhook of its product.
      const body = stripUnstorableDeep((await res.json()) as GraphQLResponse<T>);
      const cost = body.extensions?.cost;
      if (cost?.throttleStatus) throttle = { ...cost.throttleStatus, at: Date.now() };
      if (cost?.requestedQueryCost) costByOperation.set(operationName, cost.requestedQueryCost);
      const throttled = body.errors?.some((e) => e.extensions?.code === "THROTTLED");
      if (throttled) {
        if (attempt >= maxRetries) throw new CommerceError(`Shopify throttled ${operationName} ${attempt + 1} times`, [], 429);
        const need = cost?.requestedQueryCost ?? costByOperation.get(operationName) ?? 0;
        const st = cost?.throttleStatus;
        const ms = st ? Math.ceil((Math.max(0, need - st.currentlyAvailable) / Math.max(1, st.restoreRate)) * 1000) : backoff(attempt);
        log?.info({ operationName, attempt, ms }, "shopify: throttled, retrying");
        await sleep(Math.max(ms, 100));
        continue;
      }
      if (body.errors?.length) {
        throw new CommerceError(`Shopify ${operationName} failed: ${body.errors.map((e) => e.message).join("; ")}`, body.errors.map((e) => ({ message: e.message })), 502);
      }
      if (!body.data) throw new CommerceError(`Shopify ${operationName} answered no data`, [], 502);
      return body.data;
    }
  }

  /** userErrors → CommerceError with Shopify's messages (404 when they say the resource is missing). */
  function check(operation: string, errors: UserErrors | null | undefined) {
    if (!errors?.length) return;
    log?.info({ operation, userErrors: errors }, "shopify: userErrors");
    const notFound = errors.some((e) => /NOT_FOUND|DOES_NOT_EXIST/i.test(e.code ?? "") || /does not exist|not found|could not be found/i.test(e.message));
    throw new CommerceError(errors.map((e) => e.message).join("; "), errors.map((e) => ({ field: e.field ?? null, message: e.message })), notFound ? 404 : 422);
  }

  async function rawProduct(id: string): Promise<RawProduct> {
    const data = await gql<{ product: RawProduct | null }>("ProductGet", D.PRODUCT_GET, { id });
    if (!data.product) throw new CommerceError(`Product ${id} not found`, [{ field: ["id"], message: "Product does not exist" }], 404);
    return data.product;
  }

  let locationCache: Promise<string> | null = null;
  function inventoryLocation(): Promise<string> {
    locationCache ??= gql<{ locations: { nodes: { id: string; isActive: boolean; shipsInventory: boolean; fulfillsOnlineOrders: boolean }[] } }>("InventoryLocations", D.INVENTORY_LOCATIONS).then((d) => {
      const l = d.locations.nodes.find((x) => x.isActive && x.shipsInventory) ?? d.locations.nodes.find((x) => x.isActive && x.fulfillsOnlineOrders) ?? d.locations.nodes.find((x) => x.isActive);
      if (!l) throw new CommerceError("The shop has no active location for inventory", [], 422);
      return l.id;
    });
    locationCache.catch(() => (locationCache = null));
    return locationCache;
  }

  type RawRfo = {
    id: string;
    lineItems: { nodes: { id: string; totalQuantity: number; fulfillmentLineItem?: { lineItem: { id: string } } | null; dispositions?: { quantity: number }[] }[] };
    reverseDeliveries?: { nodes: { id: string }[] };
  };
  /** The return's reverse fulfilment orders; 404 for an unknown return, 409 before it is approved (Shopify makes them on approval). */
  async function reverseFulfillmentOrders(returnId: string): Promise<RawRfo[]> {
    const data = await gql<{ return: { reverseFulfillmentOrders: { nodes: RawRfo[] } } | null }>("ReturnReverseFulfillmentOrders", D.RETURN_REVERSE_FULFILLMENT_ORDERS, { id: returnId });
    if (!data.return) throw new CommerceError(`Return ${returnId} not found`, [{ field: ["id"], message: "Return does not exist" }], 404);
    const orders = data.return.reverseFulfillmentOrders.nodes;
    if (!orders.length) throw new CommerceError(`Return ${returnId} is not approved yet`, [{ field: ["id"], message: "Return has no reverse fulfillment order" }], 409);
    return orders;
  }

  /**
   * The label and tracking of the parcel coming back, on every reverse fulfilment order: its
   * reverse deliveries are updated (reverseDeliveryShippingUpdate), and one without a delivery gets
   * one (reverseDeliveryCreateWithShipping). Updating what exists keeps a repeated label or a
   * tracking correction from piling up deliveries.
   */
  async function shipReturn(returnId: string, o: { trackingNumber: string | null; trackingUrl?: string | null; labelUrl: string | null; notifyCustomer: boolean }) {
    const trackingInput = o.trackingNumber ? { trackingInput: { number: o.trackingNumber, ...(o.trackingUrl ? { url: o.trackingUrl } : {}) } } : {};
    const labelInput = o.labelUrl ? { labelInput: { fileUrl: o.labelUrl } } : {};
    for (const rfo of await reverseFulfillmentOrders(returnId)) {
      const deliveries = rfo.reverseDeliveries?.nodes ?? [];
      if (!deliveries.length) {
        const created = await gql<{ reverseDeliveryCreateWithShipping: { userErrors: UserErrors } }>("ReverseDeliveryCreateWithShipping", D.REVERSE_DELIVERY_CREATE_WITH_SHIPPING, {
          reverseFulfillmentOrderId: rfo.id,
          reverseDeliveryLineItems: rfo.lineItems.nodes.map((l) => ({ reverseFulfillmentOrderLineItemId: l.id, quantity: l.totalQuantity })),
          ...trackingInput,
          ...labelInput,
          notifyCustomer: o.notifyCustomer,
        });
        check("reverseDeliveryCreateWithShipping", created.reverseDeliveryCreateWithShipping.userErrors);
        continue;
      }
      for (const d of deliveries) {
        const updated = await gql<{ reverseDeliveryShippingUpdate: { userErrors: UserErrors } }>("ReverseDeliveryShippingUpdate", D.REVERSE_DELIVERY_SHIPPING_UPDATE, {
          reverseDeliveryId: d.id,
          ...trackingInput,
          ...labelInput,
          notifyCustomer: o.notifyCustomer,
        });
        check("reverseDeliveryShippingUpdate", updated.reverseDeliveryShippingUpdate.userErrors);
      }
    }
  }

  let publicationCache: Promise<{ id: string; supportsFuturePublishing: boolean }> | null = null;
  function onlineStorePublication() {
    publicationCache ??= gql<{ publications: { nodes: { id: string; supportsFuturePublishing: boolean; catalog: { title: string } | null }[] } }>("Publications", D.PUBLICATIONS).then((d) => {
      const p = d.publications.nodes.find((x) => x.catalog?.title.toLowerCase() === onlineStoreName);
      if (!p) throw new CommerceError(`The "${opts.onlineStoreName ?? "Online Store"}" publication was not found: install the Online Store sales channel`, [], 422);
      return { id: p.id, supportsFuturePublishing: p.supportsFuturePublishing };
    });
    publicationCache.catch(() => (publicationCache = null));
    return publicationCache;
  }

  const metafieldGender = (ownerId: string, gender: TargetGenderValue) => ({ ownerId, namespace: D.METAFIELD_NAMESPACE, key: D.TARGET_GENDER_KEY, type: "single_line_text_field", value: gender });

  async function* paginate<N>(op: string, doc: string, field: string, variables: Record<string, unknown>): AsyncGenerator<N> {
    let after: string | null = null;
    for (;;) {
      const data: Record<string, { nodes: N[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }> = await gql(op, doc, { ...variables, after });
      const conn = data[field];
      for (const n of conn.nodes) yield n;
      if (!conn.pageInfo.hasNextPage || !conn.pageInfo.endCursor) return;
      after = conn.pageInfo.endCursor;
    }
  }

  const port: CommercePort = {
    kind: "shopify",

    async getProduct(id) {
      const data = await gql<{ product: RawProduct | null }>("ProductGet", D.PRODUCT_GET, { id });
      return data.product ? toProductSnapshot(data.product) : null;
    },

    async listProducts({ cursor, limit, updatedSince }) {
      const data = await gql<{ products: { nodes: RawProduct[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>("ProductsList", D.PRODUCTS_LIST, {
        first: Math.max(1, Math.min(limit, 50)),
        after: cursor ?? null,
        query: updatedSince ? `updated_at:>='${updatedSince.toISOString()}'` : null,
      });
      return { items: data.products.nodes.map((p) => toProductSnapshot(p)), nextCursor: data.products.pageInfo.hasNextPage ? data.products.pageInfo.endCursor : null };
    },

    async *exportAllProducts(onProgress, exportOpts: ExportOptions = {}) {
      const search = exportOpts.vendor ? `vendor:'${exportOpts.vendor.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'` : undefined;
      onProgress?.(0);
      const count = await gql<{ productsCount: { count: number } | null }>("ProductsCount", D.PRODUCTS_COUNT, { query: search ?? null });
      const total = count.productsCount?.count ?? 0;
      const run = await gql<{ bulkOperationRunQuery: { bulkOperation: { id: string; status: string } | null; userErrors: UserErrors } }>("BulkOperationRunQuery", D.BULK_OPERATION_RUN_QUERY, {
        query: D.bulkProductsQuery(search),
      });
      check("bulkOperationRunQuery", run.bulkOperationRunQuery.userErrors);
      const opId = run.bulkOperationRunQuery.bulkOperation?.id;
      if (!opId) throw new CommerceError("Shopify did not start the bulk operation", [], 502);
      log?.info({ bulkOperationId: opId, total }, "shopify: bulk export started");
      let url: string | null = null;
      for (;;) {
        const st = await gql<{ bulkOperation: { id: string; status: string; errorCode: string | null; rootObjectCount: string; url: string | null; partialDataUrl: string | null } | null }>(
          "BulkOperationStatus",
          D.BULK_OPERATION_STATUS,
          { id: opId },
        );
        const op = st.bulkOperation;
        if (!op) throw new CommerceError(`Bulk operation ${opId} not found`, [], 502);
        if (op.status === "COMPLETED") {
          url = op.url;
          break;
        }
        if (["FAILED", "CANCELED", "CANCELING", "EXPIRED"].includes(op.status)) {
          throw new CommerceError(`The bulk export ${op.status.toLowerCase()}${op.errorCode ? ` (${op.errorCode})` : ""}`, [], 502);
        }
        onProgress?.(total ? Math.min(0.5, (0.5 * Number(op.rootObjectCount)) / total) : 0);
        await sleep(bulkPollMs);
      }
      onProgress?.(0.5);
      if (!url) {
        onProgress?.(1); // no products at all: Shopify gives no file
        return;
      }
      const file = await doFetch(url);
      if (!file.ok) throw new CommerceError(`Downloading the bulk export failed: HTTP ${file.status}`, [], 502);
      const products = assembleBulkProducts(await file.text());
      for (const [i, p] of products.entries()) {
        yield p;
        onProgress?.(0.5 + (0.5 * (i + 1)) / products.length);
      }
      onProgress?.(1);
    },

    async createProduct(input: ProductInput) {
      const locationId = input.variants.length ? await inventoryLocation() : null;
      const data = await gql<{ productSet: { product: RawProduct | null; userErrors: UserErrors } }>("ProductSet", D.PRODUCT_SET, {
        input: {
          title: input.title,
          ...(input.handle ? { handle: input.handle } : {}),
          vendor: input.vendor,
          productType: input.productType,
          descriptionHtml: input.descriptionHtml,
          status: fromStatus(input.status),
          tags: input.tags,
          metafields: [{ namespace: D.METAFIELD_NAMESPACE, key: D.TARGET_GENDER_KEY, type: "single_line_text_field", value: input.targetGender }],
          ...(input.options.length ? { productOptions: input.options.map((o, i) => ({ name: o.name, position: i + 1, values: o.values.map((name) => ({ name })) })) } : {}),
          ...(input.variants.length
            ? {
                variants: input.variants.map((v, i) => ({
                  position: i + 1,
                  optionValues: v.selectedOptions.map((so) => ({ optionName: so.name, name: so.value })),
                  price: v.price,
                  compareAtPrice: v.compareAtPrice ?? null,
                  ...(v.sku ? { sku: v.sku } : {}),
                  inventoryQuantities: [{ locationId, name: "available", quantity: v.inventoryQuantity }],
                  ...(v.colorHex ? { metafields: [{ namespace: D.METAFIELD_NAMESPACE, key: D.COLOR_HEX_KEY, type: "color", value: v.colorHex }] } : {}),
                  ...(v.imageUrl ? { file: { originalSource: v.imageUrl, contentType: "IMAGE" } } : {}),
                })),
              }
            : {}),
          ...(input.images.length ? { files: input.images.map((im) => ({ originalSource: im.url, alt: im.altText ?? "", contentType: "IMAGE" })) } : {}),
        },
      });
      check("productSet", data.productSet.userErrors);
      if (!data.productSet.product) throw new CommerceError("Shopify did not return the created product", [], 502);
      return toProductSnapshot(data.productSet.product);
    },

    async updateProduct(id, patch) {
      const product: Record<string, unknown> = { id };
      for (const k of ["title", "handle", "vendor", "productType", "descriptionHtml", "tags"] as const) if (patch[k] !== undefined) product[k] = patch[k];
      if (patch.status) product.status = fromStatus(patch.status);
      if (patch.targetGender) product.metafields = [{ namespace: D.METAFIELD_NAMESPACE, key: D.TARGET_GENDER_KEY, type: "single_line_text_field", value: patch.targetGender }];
      const data = await gql<{ productUpdate: { product: RawProduct | null; userErrors: UserErrors } }>("ProductUpdate", D.PRODUCT_UPDATE, { product });
      check("productUpdate", data.productUpdate.userErrors);
      return data.productUpdate.product ? toProductSnapshot(data.productUpdate.product) : toProductSnapshot(await rawProduct(id));
    },

    async deleteProduct(id) {
      const data = await gql<{ productDelete: { deletedProductId: string | null; userErrors: UserErrors } }>("ProductDelete", D.PRODUCT_DELETE, { id });
      check("productDelete", data.productDelete.userErrors);
    },

    async setProductStatus(id, status) {
      const data = await gql<{ productUpdate: { userErrors: UserErrors } }>("ProductUpdate", D.PRODUCT_UPDATE, { product: { id, status: fromStatus(status) } });
      check("productUpdate", data.productUpdate.userErrors);
    },

    async setTargetGender(id, gender) {
      const data = await gql<{ metafieldsSet: { userErrors: UserErrors } }>("MetafieldsSet", D.METAFIELDS_SET, { metafields: [metafieldGender(id, gender)] });
      check("metafieldsSet", data.metafieldsSet.userErrors);
    },

    async setVariantColorHex(productId, values) {
      for (const v of values) if (v.hex !== null && !isHex(v.hex)) throw new CommerceError(`${v.hex} is not a colour hex (#rrggbb)`, [{ field: ["colorHex"], message: "Invalid colour" }]);
      const set = values.filter((v) => v.hex !== null);
      const del = values.filter((v) => v.hex === null);
      // metafieldsSet takes at most 25 metafields per call.
      for (let i = 0; i < set.length; i += 25) {
        const data = await gql<{ metafieldsSet: { userErrors: UserErrors } }>("MetafieldsSet", D.METAFIELDS_SET, {
          metafields: set.slice(i, i + 25).map((v) => ({ ownerId: v.variantId, namespace: D.METAFIELD_NAMESPACE, key: D.COLOR_HEX_KEY, type: "color", value: v.hex!.toLowerCase() })),
        });
        check("metafieldsSet", data.metafieldsSet.userErrors);
      }
      if (del.length) {
        const data = await gql<{ metafieldsDelete: { userErrors: UserErrors } }>("MetafieldsDelete", D.METAFIELDS_DELETE, {
          metafields: del.map((v) => ({ ownerId: v.variantId, namespace: D.METAFIELD_NAMESPACE, key: D.COLOR_HEX_KEY })),
        });
        check("metafieldsDelete", data.metafieldsDelete.userErrors);
      }
      void productId;
    },

    async updateOptionValue(productId, optionName, from, to) {
      const p = await rawProduct(productId);
      const option = p.options.find((o) => o.name === optionName);
      if (!option) throw new CommerceError(`Option ${optionName} not found`, [{ field: ["optionName"], message: "Option does not exist" }], 404);
      const value = option.optionValues.find((v) => v.name === from);
      if (!value) throw new CommerceError(`Option value ${from} not found`, [{ field: ["value"], message: "Option value does not exist" }], 404);
      if (from !== to) {
        const data = await gql<{ productOptionUpdate: { userErrors: UserErrors } }>("ProductOptionUpdate", D.PRODUCT_OPTION_UPDATE, {
          productId,
          option: { id: option.id },
          optionValuesToUpdate: [{ id: value.id, name: to }],
        });
        check("productOptionUpdate", data.productOptionUpdate.userErrors);
      }
      return toProductSnapshot(await rawProduct(productId));
    },

    async deleteOptionValue(productId, optionName, valueName) {
      const p = await rawProduct(productId);
      const option = p.options.find((o) => o.name === optionName);
      if (!option) throw new CommerceError(`Option ${optionName} not found`, [{ field: ["optionName"], message: "Option does not exist" }], 404);
      const value = option.optionValues.find((v) => v.name === valueName);
      if (!value) throw new CommerceError(`Option value ${valueName} not found`, [{ field: ["value"], message: "Option value does not exist" }], 404);
      if (option.optionValues.length === 1) throw new CommerceError(`Option ${optionName} must keep at least one value`, [{ field: ["value"], message: "An option must have at least one value" }]);
      const variants = p.variants?.nodes ?? [];
      const doomed = variants.filter((v) => v.selectedOptions.some((o) => o.name === optionName && o.value === valueName)).map((v) => v.id);
      if (doomed.length && doomed.length === variants.length) throw new CommerceError("A product must keep at least one variant", [{ field: ["value"], message: "Deleting this value would remove every variant" }]);
      if (doomed.length) {
        const data = await gql<{ productVariantsBulkDelete: { userErrors: UserErrors } }>("ProductVariantsDelete", D.PRODUCT_VARIANTS_DELETE, { productId, variantsIds: doomed });
        check("productVariantsBulkDelete", data.productVariantsBulkDelete.userErrors);
      }
      // Shopify drops a value once no variant uses it; delete it explicitly if it is still there.
      const after = await rawProduct(productId);
      const still = after.options.find((o) => o.id === option.id)?.optionValues.find((v) => v.name === valueName);
      if (still) {
        const data = await gql<{ productOptionUpdate: { userErrors: UserErrors } }>("ProductOptionUpdate", D.PRODUCT_OPTION_UPDATE, { productId, option: { id: option.id }, optionValuesToDelete: [still.id] });
        check("productOptionUpdate", data.productOptionUpdate.userErrors);
        return toProductSnapshot(await rawProduct(productId));
      }
      return toProductSnapshot(after);
    },

    async updateProductVariants(productId, changes) {
      const p = await rawProduct(productId);
      const current = toProductSnapshot(p);
      const plan = planVariantChanges(current, changes);
      // Not atomic on Shopify: the order (create, update, delete) keeps a sellable product between calls.
      if (plan.create.length) {
        const locationId = await inventoryLocation();
        const data = await gql<{ productVariantsBulkCreate: { userErrors: UserErrors } }>("ProductVariantsCreate", D.PRODUCT_VARIANTS_CREATE, {
          productId,
          variants: plan.create.map((v) => ({
            optionValues: v.selectedOptions.map((so) => ({ optionName: so.name, name: so.value })),
            price: v.price,
            compareAtPrice: v.compareAtPrice ?? null,
            ...(v.sku ? { inventoryItem: { sku: v.sku } } : {}),
            inventoryQuantities: [{ locationId, availableQuantity: v.inventoryQuantity }],
            ...(v.colorHex ? { metafields: [{ namespace: D.METAFIELD_NAMESPACE, key: D.COLOR_HEX_KEY, type: "color", value: v.colorHex.toLowerCase() }] } : {}),
          })),
        });
        check("productVariantsBulkCreate", data.productVariantsBulkCreate.userErrors);
      }
      if (plan.update.length) {
        const data = await gql<{ productVariantsBulkUpdate: { userErrors: UserErrors } }>("ProductVariantsUpdate", D.PRODUCT_VARIANTS_UPDATE, {
          productId,
          variants: plan.update.map((u) => ({
            id: u.id,
            ...(u.price !== undefined ? { price: u.price } : {}),
            ...(u.compareAtPrice !== undefined ? { compareAtPrice: u.compareAtPrice } : {}),
            ...(u.sku !== undefined ? { inventoryItem: { sku: u.sku ?? "" } } : {}),
          })),
        });
        check("productVariantsBulkUpdate", data.productVariantsBulkUpdate.userErrors);
      }
      if (plan.delete.length) {
        const data = await gql<{ productVariantsBulkDelete: { userErrors: UserErrors } }>("ProductVariantsDelete", D.PRODUCT_VARIANTS_DELETE, { productId, variantsIds: plan.delete });
        check("productVariantsBulkDelete", data.productVariantsBulkDelete.userErrors);
      }
      if (!plan.unusedValues.size) return toProductSnapshot(await rawProduct(productId));
      // Values no variant uses any more: deleted explicitly when Shopify kept them.
      const after = await rawProduct(productId);
      for (const option of after.options) {
        const unused = plan.unusedValues.get(option.name) ?? [];
        const ids = option.optionValues.filter((v) => unused.includes(v.name)).map((v) => v.id);
        if (!ids.length || ids.length === option.optionValues.length) continue;
        const data = await gql<{ productOptionUpdate: { userErrors: UserErrors } }>("ProductOptionUpdate", D.PRODUCT_OPTION_UPDATE, { productId, option: { id: option.id }, optionValuesToDelete: ids });
        check("productOptionUpdate", data.productOptionUpdate.userErrors);
      }
      return toProductSnapshot(await rawProduct(productId));
    },

    async reorderMedia(productId, mediaIdsInOrder) {
      const moves = [...new Set(mediaIdsInOrder)].map((id, i) => ({ id, newPosition: String(i) }));
      if (!moves.length) return;
      const data = await gql<{ productReorderMedia: { mediaUserErrors: UserErrors } }>("ProductReorderMedia", D.PRODUCT_REORDER_MEDIA, { id: productId, moves });
      check("productReorderMedia", data.productReorderMedia.mediaUserErrors);
    },

    async appendVariantMedia(productId, pairs) {
      const byVariant = new Map<string, string[]>();
      for (const p of pairs) byVariant.set(p.variantId, [...(byVariant.get(p.variantId) ?? []), p.mediaId]);
      const data = await gql<{ productVariantAppendMedia: { userErrors: UserErrors } }>("ProductVariantAppendMedia", D.PRODUCT_VARIANT_APPEND_MEDIA, {
        productId,
        variantMedia: [...byVariant].map(([variantId, mediaIds]) => ({ variantId, mediaIds })),
      });
      check("productVariantAppendMedia", data.productVariantAppendMedia.userErrors);
    },

    async addProductImage(productId, image) {
      const data = await gql<{ productUpdate: { product: { id: string; mediaCount: { count: number } | null; media: { nodes: RawMedia[] } } | null; userErrors: UserErrors } }>(
        "ProductAddMedia",
        D.PRODUCT_ADD_MEDIA,
        { product: { id: productId }, media: [{ originalSource: image.url, alt: image.altText ?? "", mediaContentType: "IMAGE" }] },
      );
      check("productUpdate", data.productUpdate.userErrors);
      const m = data.productUpdate.product?.media.nodes[0];
      if (!m) throw new CommerceError("Shopify did not return the new media", [], 502);
      const last = Math.max(0, (data.productUpdate.product?.mediaCount?.count ?? 1) - 1);
      let position = last;
      if (image.position !== undefined && Math.floor(image.position) < last) {
        // Moved into place (the media from there on move one place down).
        position = Math.max(0, Math.floor(image.position));
        const moved = await gql<{ productReorderMedia: { mediaUserErrors: UserErrors } }>("ProductReorderMedia", D.PRODUCT_REORDER_MEDIA, {
          id: productId,
          moves: [{ id: m.id, newPosition: String(position) }],
        });
        check("productReorderMedia", moved.productReorderMedia.mediaUserErrors);
      }
      // A new image is processed asynchronously: until then it has no image URL of its own.
      return {
        id: m.id,
        url: m.image?.url ?? image.url,
        altText: m.image?.altText ?? image.altText ?? null,
        width: m.image?.width ?? null,
        height: m.image?.height ?? null,
        position,
      };
    },

    async deleteProductMedia(productId, mediaIds) {
      const ids = [...new Set(mediaIds)];
      if (!ids.length) return;
      const data = await gql<{ fileUpdate: { files: { id: string }[] | null; userErrors: UserErrors } }>("ProductRemoveMedia", D.PRODUCT_REMOVE_MEDIA, {
        files: ids.map((id) => ({ id, referencesToRemove: [productId] })),
      });
      check("fileUpdate", data.fileUpdate.userErrors);
    },

    async setVariantImage(productId, variantId, image) {
      // A variant shows one media: detach what it has (Shopify refuses a second one with
      // PRODUCT_VARIANT_ALREADY_HAS_MEDIA), then create the image and attach it in one call. If
      // that call fails, the detached media is put back so the variant is not left without one.
      const found = await gql<{ productVariant: { id: string; product: { id: string }; media: { nodes: { id: string }[] } } | null }>("VariantMedia", D.VARIANT_MEDIA, { id: variantId });
      const variant = found.productVariant;
      if (!variant || variant.product.id !== productId) {
        throw new CommerceError(`Variant ${variantId} not found on product`, [{ field: ["variantId"], message: "Variant does not exist" }], 404);
      }
      const previous = variant.media.nodes.map((m) => m.id);
      if (previous.length) {
        const detached = await gql<{ productVariantDetachMedia: { userErrors: UserErrors } }>("ProductVariantDetachMedia", D.PRODUCT_VARIANT_DETACH_MEDIA, {
          productId,
          variantMedia: [{ variantId, mediaIds: previous }],
        });
        check("productVariantDetachMedia", detached.productVariantDetachMedia.userErrors);
      }
      try {
        const data = await gql<{ productVariantsBulkUpdate: { productVariants: { id: string; media: { nodes: RawMedia[] } }[] | null; userErrors: UserErrors } }>(
          "ProductVariantSetImage",
          D.PRODUCT_VARIANT_SET_IMAGE,
          {
            productId,
            media: [{ originalSource: image.url, alt: image.altText ?? "", mediaContentType: "IMAGE" }],
            variants: [{ id: variantId, mediaSrc: [image.url] }],
          },
        );
        check("productVariantsBulkUpdate", data.productVariantsBulkUpdate.userErrors);
        const media = data.productVariantsBulkUpdate.productVariants?.find((v) => v.id === variantId)?.media.nodes[0];
        if (!media) throw new CommerceError("Shopify did not attach the image to the variant", [], 502);
        // A new image is processed asynchronously: until then it has no URL of its own.
        return { mediaId: media.id, imageUrl: media.image?.url ?? image.url };
      } catch (e) {
        if (previous.length) {
          await gql<{ productVariantAppendMedia: { userErrors: UserErrors } }>("ProductVariantAppendMedia", D.PRODUCT_VARIANT_APPEND_MEDIA, {
            productId,
            variantMedia: [{ variantId, mediaIds: [previous[0]] }],
          }).catch((restoreError: unknown) => log?.warn({ err: restoreError, productId, variantId }, "shopify: could not re-attach the variant's previous media"));
        }
        throw e;
      }
    },

    async inventoryLevels({ productIds, outOfStockOnly }): Promise<InventoryLevel[]> {
      const terms: string[] = [];
      if (productIds?.length) terms.push(`(${productIds.map((id) => `product_id:${legacyId(id)}`).join(" OR ")})`);
      if (outOfStockOnly) terms.push("inventory_quantity:<=0");
      if (productIds && productIds.length === 0) return [];
      const out: InventoryLevel[] = [];
      for await (const v of paginate<{ id: string; inventoryQuantity: number | null; product: { id: string } }>("InventoryLevels", D.INVENTORY_LEVELS, "productVariants", {
        first: 250,
        query: terms.length ? terms.join(" AND ") : null,
      })) {
        out.push({ productId: v.product.id, variantId: v.id, available: v.inventoryQuantity ?? 0 });
      }
      return out;
    },

    async setInventory(levels) {
      if (!levels.length) return;
      const locationId = await inventoryLocation();
      for (let i = 0; i < levels.length; i += 250) {
        const batch = levels.slice(i, i + 250);
        const items = await gql<{ nodes: ({ id: string; inventoryItem: { id: string } } | null)[] }>("VariantInventoryItems", D.VARIANT_INVENTORY_ITEMS, { ids: batch.map((l) => l.variantId) });
        const itemOf = new Map(items.nodes.filter((n): n is { id: string; inventoryItem: { id: string } } => !!n?.inventoryItem).map((n) => [n.id, n.inventoryItem.id]));
        const missing = batch.filter((l) => !itemOf.has(l.variantId));
        if (missing.length) throw new CommerceError(`Variant ${missing[0].variantId} not found`, missing.map((m) => ({ field: ["variantId"], message: `Variant ${m.variantId} does not exist` })), 404);
        const data = await gql<{ inventorySetQuantities: { userErrors: UserErrors } }>("InventorySetQuantities", D.INVENTORY_SET_QUANTITIES, {
          input: {
            name: "available",
            reason: "correction",
            // changeFromQuantity null: set the quantity without a compare-and-set check.
            quantities: batch.map((l) => ({ inventoryItemId: itemOf.get(l.variantId), locationId, quantity: l.available, changeFromQuantity: null })),
          },
        });
        check("inventorySetQuantities", data.inventorySetQuantities.userErrors);
      }
    },

    async productIdForInventoryItem(inventoryItemId) {
      const data = await gql<{ inventoryItem: { variants: { nodes: { product: { id: string } }[] } } | null }>("InventoryItemProduct", D.INVENTORY_ITEM_PRODUCT, { id: inventoryItemId });
      return data.inventoryItem?.variants.nodes[0]?.product.id ?? null;
    },

    async publishProduct(productId, publishOpts = {}) {
      const pub = await onlineStorePublication();
      const future = publishOpts.publishDate && publishOpts.publishDate.getTime() > Date.now();
      if (future && !pub.supportsFuturePublishing) throw new CommerceError("The Online Store publication does not support scheduled publishing", [], 422);
      const data = await gql<{ publishablePublish: { userErrors: UserErrors } }>("PublishablePublish", D.PUBLISHABLE_PUBLISH, {
        id: productId,
        input: [{ publicationId: pub.id, ...(publishOpts.publishDate ? { publishDate: publishOpts.publishDate.toISOString() } : {}) }],
      });
      check("publishablePublish", data.publishablePublish.userErrors);
    },

    async unpublishProduct(productId) {
      const pub = await onlineStorePublication();
      const data = await gql<{ publishableUnpublish: { userErrors: UserErrors } }>("PublishableUnpublish", D.PUBLISHABLE_UNPUBLISH, { id: productId, input: [{ publicationId: pub.id }] });
      check("publishableUnpublish", data.publishableUnpublish.userErrors);
    },

    async getOrder(id) {
      const data = await gql<{ order: RawOrder | null }>("OrderGet", D.ORDER_GET, { id });
      return data.order ? toOrder(data.order) : null;
    },

    async listOrders({ cursor, limit, customerId, query }) {
      const terms = [customerId ? `customer_id:${legacyId(customerId)}` : null, query ?? null].filter(Boolean);
      const data = await gql<{ orders: { nodes: RawOrder[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>("OrdersList", D.ORDERS_LIST, {
        first: Math.max(1, Math.min(limit, 100)),
        after: cursor ?? null,
        query: terms.length ? terms.join(" AND ") : null,
      });
      return { items: data.orders.nodes.map(toOrder), nextCursor: data.orders.pageInfo.hasNextPage ? data.orders.pageInfo.endCursor : null };
    },

    async cancelOrder(id, o) {
      const data = await gql<{ orderCancel: { orderCancelUserErrors: UserErrors } }>("OrderCancel", D.ORDER_CANCEL, {
        orderId: id,
        reason: o.reason,
        refundMethod: { originalPaymentMethodsRefund: o.refund },
        restock: o.restock,
        staffNote: o.staffNote ?? null,
        notifyCustomer: o.notifyCustomer ?? true,
      });
      check("orderCancel", data.orderCancel.orderCancelUserErrors);
    },

    async fulfillOrderLines(orderId, o) {
      const data = await gql<{ order: { fulfillmentOrders: { nodes: { id: string; status: string; lineItems: { nodes: { id: string; remainingQuantity: number; lineItem: { id: string } }[] } }[] } } | null }>(
        "OrderFulfillmentOrders",
        D.ORDER_FULFILLMENT_ORDERS,
        { id: orderId },
      );
      if (!data.order) throw new CommerceError(`Order ${orderId} not found`, [{ field: ["orderId"], message: "Order does not exist" }], 404);
      const open = data.order.fulfillmentOrders.nodes.filter((f) => f.status === "OPEN" || f.status === "IN_PROGRESS");
      const byFo = new Map<string, { id: string; quantity: number }[]>();
      for (const line of o.lines) {
        let left = line.quantity;
        for (const fo of open) {
          for (const li of fo.lineItems.nodes) {
            if (li.lineItem.id !== line.orderLineId || li.remainingQuantity <= 0 || left <= 0) continue;
            const q = Math.min(left, li.remainingQuantity);
            byFo.set(fo.id, [...(byFo.get(fo.id) ?? []), { id: li.id, quantity: q }]);
            left -= q;
          }
        }
        if (left > 0) throw new CommerceError(`Line item ${line.orderLineId} has no ${line.quantity} unfulfilled units`, [{ field: ["lines"], message: "Line item is not fulfillable" }], 409);
      }
      const created = await gql<{ fulfillmentCreate: { fulfillment: { id: string } | null; userErrors: UserErrors } }>("FulfillmentCreate", D.FULFILLMENT_CREATE, {
        fulfillment: {
          lineItemsByFulfillmentOrder: [...byFo].map(([fulfillmentOrderId, items]) => ({ fulfillmentOrderId, fulfillmentOrderLineItems: items })),
          notifyCustomer: o.notifyCustomer,
          ...(o.trackingNumber ? { trackingInfo: { number: o.trackingNumber, ...(o.trackingCompany ? { company: o.trackingCompany } : {}) } } : {}),
        },
      });
      check("fulfillmentCreate", created.fulfillmentCreate.userErrors);
      if (!created.fulfillmentCreate.fulfillment) throw new CommerceError("Shopify did not return the fulfilment", [], 502);
      return { fulfillmentId: created.fulfillmentCreate.fulfillment.id };
    },

    async updateTracking(fulfillmentId, o) {
      const data = await gql<{ fulfillmentTrackingInfoUpdate: { userErrors: UserErrors } }>("FulfillmentTrackingUpdate", D.FULFILLMENT_TRACKING_UPDATE, {
        fulfillmentId,
        trackingInfoInput: { number: o.trackingNumber, ...(o.trackingCompany ? { company: o.trackingCompany } : {}) },
        notifyCustomer: true,
      });
      check("fulfillmentTrackingInfoUpdate", data.fulfillmentTrackingInfoUpdate.userErrors);
    },

    async updateOrder(id, patch) {
      const a = patch.shippingAddress;
      const data = await gql<{ orderUpdate: { order: { id: string } | null; userErrors: UserErrors } }>("OrderUpdate", D.ORDER_UPDATE, {
        input: {
          id,
          ...(patch.note !== undefined ? { note: patch.note ?? "" } : {}),
          ...(patch.tags !== undefined ? { tags: patch.tags } : {}),
          ...(a
            ? {
                shippingAddress: Object.fromEntries(
                  Object.entries({ firstName: a.firstName, lastName: a.lastName, company: a.company, address1: a.address1, address2: a.address2, city: a.city, province: a.province, zip: a.zip, countryCode: a.countryCode, phone: a.phone }).filter(([, v]) => v !== undefined),
                ),
              }
            : {}),
        },
      });
      check("orderUpdate", data.orderUpdate.userErrors);
      if (!data.orderUpdate.order) throw new CommerceError(`Order ${id} not found`, [{ field: ["id"], message: "Order does not exist" }], 404);
    },

    async requestReturn(orderId, lines) {
      const data = await gql<{ order: { fulfillments: { id: string; fulfillmentLineItems: { nodes: { id: string; quantity: number; lineItem: { id: string } }[] } }[] } | null }>(
        "OrderFulfillmentLines",
        D.ORDER_FULFILLMENT_LINES,
        { id: orderId },
      );
      if (!data.order) throw new CommerceError(`Order ${orderId} not found`, [{ field: ["orderId"], message: "Order does not exist" }], 404);
      const fulfilled = data.order.fulfillments.flatMap((f) => f.fulfillmentLineItems.nodes);
      const returnLineItems = lines.map((l) => {
        const fli = fulfilled.find((x) => x.lineItem.id === l.orderLineId && x.quantity >= l.quantity) ?? fulfilled.find((x) => x.lineItem.id === l.orderLineId);
        if (!fli) throw new CommerceError(`Line item ${l.orderLineId} has not been fulfilled and cannot be returned`, [{ field: ["returnLineItems"], message: "Line item is not returnable" }], 409);
        return { fulfillmentLineItemId: fli.id, quantity: l.quantity, returnReason: toShopifyReturnReason(l.reason), ...(l.note ? { customerNote: l.note } : {}) };
      });
      const created = await gql<{ returnRequest: { return: { id: string } | null; userErrors: UserErrors } }>("ReturnRequest", D.RETURN_REQUEST, { input: { orderId, returnLineItems } });
      check("returnRequest", created.returnRequest.userErrors);
      if (!created.returnRequest.return) throw new CommerceError("Shopify did not return the return", [], 502);
      return { returnId: created.returnRequest.return.id };
    },

    async approveReturn(returnId, o) {
      const data = await gql<{ returnApproveRequest: { userErrors: UserErrors } }>("ReturnApproveRequest", D.RETURN_APPROVE_REQUEST, { input: { id: returnId, notifyCustomer: o.notifyCustomer } });
      check("returnApproveRequest", data.returnApproveRequest.userErrors);
    },

    async declineReturn(returnId, o) {
      const data = await gql<{ returnDeclineRequest: { userErrors: UserErrors } }>("ReturnDeclineRequest", D.RETURN_DECLINE_REQUEST, {
        input: { id: returnId, declineReason: o.reason, declineNote: o.note.slice(0, 500), notifyCustomer: o.notifyCustomer },
      });
      check("returnDeclineRequest", data.returnDeclineRequest.userErrors);
    },

    async cancelReturn(returnId, o) {
      const data = await gql<{ returnCancel: { userErrors: UserErrors } }>("ReturnCancel", D.RETURN_CANCEL, { id: returnId, notifyCustomer: o.notifyCustomer });
      check("returnCancel", data.returnCancel.userErrors);
    },

    async sendReturnLabel(returnId, o) {
      await shipReturn(returnId, { trackingNumber: o.trackingNumber ?? null, labelUrl: o.labelUrl ?? null, notifyCustomer: o.notifyCustomer });
    },

    async updateReturnTracking(returnId, o) {
      await shipReturn(returnId, { trackingNumber: o.trackingNumber, trackingUrl: o.trackingUrl ?? null, labelUrl: null, notifyCustomer: o.notifyCustomer });
    },

    async receiveReturnItems(returnId, o) {
      // Disposing the reverse fulfilment order's lines is how Shopify records what came back (and
      // restocks it at a location); returnProcess could carry the same dispositions, but the app
      // refunds later and separately, so the stock should not wait for the refund.
      const orders = await reverseFulfillmentOrders(returnId);
      const locationId = o.lines.some((l) => l.received) ? await inventoryLocation() : null;
      const inputs: { reverseFulfillmentOrderLineItemId: string; quantity: number; dispositionType: "RESTOCKED" | "MISSING"; locationId?: string }[] = [];
      for (const line of o.lines) {
        let left = line.quantity;
        for (const li of orders.flatMap((rfo) => rfo.lineItems.nodes)) {
          if (left <= 0 || li.fulfillmentLineItem?.lineItem.id !== line.orderLineId) continue;
          // A retry after a partial success disposes only what is still undisposed.
          const open = li.totalQuantity - (li.dispositions ?? []).reduce((n, d) => n + d.quantity, 0);
          const q = Math.min(left, open);
          if (q <= 0) continue;
          inputs.push({ reverseFulfillmentOrderLineItemId: li.id, quantity: q, dispositionType: line.received ? "RESTOCKED" : "MISSING", ...(line.received ? { locationId: locationId! } : {}) });
          left -= q;
        }
      }
      if (!inputs.length) return;
      const data = await gql<{ reverseFulfillmentOrderDispose: { userErrors: UserErrors } }>("ReverseFulfillmentOrderDispose", D.REVERSE_FULFILLMENT_ORDER_DISPOSE, { dispositionInputs: inputs });
      check("reverseFulfillmentOrderDispose", data.reverseFulfillmentOrderDispose.userErrors);
    },

    async getReturn(returnId) {
      type Raw = {
        return: {
          id: string;
          status: ReturnSnapshot["status"];
          order: { id: string };
          decline: { reason: string; note: string | null } | null;
          returnLineItems: { nodes: { id: string; quantity: number; customerNote: string | null; returnReasonNote: string; returnReasonDefinition: { handle: string } | null; fulfillmentLineItem?: { lineItem: { id: string } } }[] };
        } | null;
      };
      const data = await gql<Raw>("ReturnGet", D.RETURN_GET, { id: returnId });
      const r = data.return;
      if (!r) return null;
      return {
        id: r.id,
        orderId: r.order.id,
        status: r.status,
        decline: r.decline ? { reason: r.decline.reason, note: r.decline.note ?? null } : null,
        lines: r.returnLineItems.nodes
          .filter((n) => n.fulfillmentLineItem)
          .map((n) => ({
            orderLineId: n.fulfillmentLineItem!.lineItem.id,
            quantity: n.quantity,
            reason: toShopifyReturnReason(n.returnReasonDefinition?.handle ?? "UNKNOWN"),
            note: n.customerNote?.trim() || n.returnReasonNote?.trim() || null,
          })),
      };
    },

    async refundReturn(returnId, o) {
      type Ctx = {
        return: {
          id: string;
          order: { id: string; transactions: { id: string; kind: string; status: string; gateway: string | null }[] };
          returnLineItems: { nodes: { id: string; quantity: number; processableQuantity: number; fulfillmentLineItem?: { lineItem: { id: string } } }[] };
        } | null;
      };
      const ctxData = await gql<Ctx>("ReturnRefundContext", D.RETURN_REFUND_CONTEXT, { id: returnId });
      const ret = ctxData.return;
      if (!ret) throw new CommerceError(`Return ${returnId} not found`, [{ field: ["id"], message: "Return does not exist" }], 404);
      const returnLineItems = o.lines.map((l) => {
        const rli = ret.returnLineItems.nodes.find((n) => n.fulfillmentLineItem?.lineItem.id === l.orderLineId);
        if (!rli) throw new CommerceError(`Line item ${l.orderLineId} is not part of return ${returnId}`, [{ field: ["returnLineItems"], message: "Line item is not in the return" }], 409);
        return { id: rli.id, quantity: Math.min(l.quantity, rli.processableQuantity || rli.quantity) };
      });
      // The refund goes back to the original payment: the order's successful sale (or capture).
      const parent = ret.order.transactions.find((t) => t.status === "SUCCESS" && (t.kind === "SALE" || t.kind === "CAPTURE"));
      if (!parent) throw new CommerceError(`Order ${ret.order.id} has no payment to refund`, [{ field: ["orderTransactions"], message: "No refundable transaction" }], 409);
      const data = await gql<{ returnProcess: { return: { id: string; status: string } | null; userErrors: UserErrors } }>("ReturnProcess", D.RETURN_PROCESS, {
        input: {
          returnId,
          returnLineItems,
          notifyCustomer: o.notifyCustomer,
          financialTransfer: { issueRefund: { orderTransactions: [{ parentId: parent.id, transactionAmount: { amount: o.amount, currencyCode: o.currencyCode } }] } },
        },
      });
      check("returnProcess", data.returnProcess.userErrors);
      // returnProcess closes the return only when nothing on it is left to process (Shopify's docs
      // do not promise it, so the status it answers decides): a partial receipt leaves the missing
      // lines unprocessed and the return OPEN, and returnClose finishes it. The money has moved by
      // now, so a refused close is logged for a manual close and never undoes the refund.
      if (data.returnProcess.return?.status !== "CLOSED") {
        try {
          const closed = await gql<{ returnClose: { userErrors: UserErrors } }>("ReturnClose", D.RETURN_CLOSE, { id: returnId });
          check("returnClose", closed.returnClose.userErrors);
        } catch (err) {
          log?.error({ err, returnId }, "shopify: the refunded return could not be closed; close it in the Shopify admin");
        }
      }
      return { refundId: null };
    },
  };
  return port;
}

const SHOPIFY_RETURN_REASONS = new Set(["COLOR", "DEFECTIVE", "NOT_AS_DESCRIBED", "OTHER", "SIZE_TOO_LARGE", "SIZE_TOO_SMALL", "STYLE", "UNKNOWN", "UNWANTED", "WRONG_ITEM"]);
function toShopifyReturnReason(r: string) {
  const up = r.trim().toUpperCase().replace(/[\s-]+/g, "_");
  return SHOPIFY_RETURN_REASONS.has(up) ? up : "OTHER";
}
