/**
 * The commerce port: everything the app asks of the store. Two adapters implement it:
 * - `local` (the embedded default): the same operations on the app's own tables;
 * - `shopify`: the Admin GraphQL API (pinned version, named #graphql documents).
 * Shapes are the Storefront-like read model the app keeps (prisma Product/ProductVariant/...).
 */

export type ProductStatus = "active" | "draft" | "archived";
export type TargetGenderValue = "both" | "menswear" | "womenswear";

export interface SelectedOption {
  name: string;
  value: string;
}

export interface VariantSnapshot {
  id: string;
  title: string;
  sku: string | null;
  price: string;
  compareAtPrice: string | null;
  availableForSale: boolean;
  inventoryQuantity: number;
  selectedOptions: SelectedOption[];
  imageUrl: string | null;
  /** The colour-hex metafield (custom.color_hex). */
  colorHex: string | null;
  position: number;
}

export interface ImageSnapshot {
  /** Shopify MediaImage GID, or our image id locally. */
  id: string;
  url: string;
  altText: string | null;
  width: number | null;
  height: number | null;
  position: number;
}

export interface ProductSnapshot {
  id: string;
  title: string;
  handle: string;
  vendor: string;
  productType: string;
  description: string;
  descriptionHtml: string;
  status: ProductStatus;
  tags: string[];
  /** The target_gender metafield (custom.target_gender). */
  targetGender: TargetGenderValue;
  currencyCode: string;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  options: { id: string; name: string; values: string[]; position: number }[];
  variants: VariantSnapshot[];
  images: ImageSnapshot[];
}

export interface ProductInput {
  title: string;
  handle?: string;
  vendor: string;
  productType: string;
  descriptionHtml: string;
  status: ProductStatus;
  tags: string[];
  targetGender: TargetGenderValue;
  options: { name: string; values: string[] }[];
  variants: { sku?: string; price: string; compareAtPrice?: string | null; inventoryQuantity: number; selectedOptions: SelectedOption[]; colorHex?: string | null; imageUrl?: string | null }[];
  images: { url: string; altText?: string | null }[];
  /** Optional (added): the app's Store the product belongs to. Local adapter: sets store_id/vendor_id; Shopify ignores it (the read model maps `vendor` to a Store by name). */
  storeId?: string | null;
}

/** One variant to create on an existing product (ProductInput's variant, without an image). */
export type VariantCreateInput = Omit<ProductInput["variants"][number], "imageUrl">;

/** What can change on an existing variant through `updateProductVariants`. */
export interface VariantUpdateInput {
  id: string;
  price?: string;
  compareAtPrice?: string | null;
  sku?: string | null;
}

/**
 * A reconcile of a product's variants, applied in this order: create, update, delete (so the
 * product never passes through having no variant). A created variant names every option of the
 * product once; a value the option does not have yet is added to it. Option values no variant
 * uses any more after the deletes are removed.
 */
export interface VariantChanges {
  create?: VariantCreateInput[];
  update?: VariantUpdateInput[];
  delete?: string[];
}

/** Optional (added): narrows a whole-catalogue export to one store. */
export interface ExportOptions {
  /** Shopify: `vendor:'…'` search filter (a Store's products carry its name as vendor). */
  vendor?: string;
  /** Local adapter: products with this store_id (takes precedence over vendor). */
  storeId?: string;
}

export interface InventoryLevel {
  productId: string;
  variantId: string;
  available: number;
}

export interface OrderLineSnapshot {
  id: string;
  productId: string | null;
  variantId: string | null;
  title: string;
  variantTitle: string | null;
  quantity: number;
  price: string;
}

export interface OrderSnapshot {
  id: string;
  name: string;
  email: string | null;
  customerId: string | null;
  createdAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  financialStatus: string | null;
  fulfillmentStatus: string | null;
  totalPrice: string;
  currencyCode: string;
  lines: OrderLineSnapshot[];
}

/** A shipping address as the admin edits it (Shopify MailingAddressInput's fields we keep). */
export interface OrderAddressInput {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  province?: string | null;
  zip?: string | null;
  countryCode?: string | null;
  phone?: string | null;
}
export interface OrderUpdateInput {
  note?: string | null;
  tags?: string[];
  shippingAddress?: OrderAddressInput;
}
export type CancelReason = "CUSTOMER" | "DECLINED" | "FRAUD" | "INVENTORY" | "OTHER" | "STAFF";

export interface ReturnLineInput {
  orderLineId: string;
  quantity: number;
  reason: string;
  note?: string;
}

/** A return as the store holds it (read by the returns webhooks). */
export interface ReturnSnapshot {
  id: string;
  orderId: string;
  /** The store's status (Shopify's ReturnStatus). */
  status: "REQUESTED" | "OPEN" | "CLOSED" | "DECLINED" | "CANCELED";
  lines: { orderLineId: string; quantity: number; reason: string; note: string | null }[];
  decline: { reason: string; note: string | null } | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface CommercePort {
  readonly kind: "local" | "shopify";

  // Products
  getProduct(id: string): Promise<ProductSnapshot | null>;
  listProducts(opts: { cursor?: string | null; limit: number; updatedSince?: Date }): Promise<Page<ProductSnapshot>>;
  /** The whole catalogue (Shopify: a bulk operation), with progress from 0 to 1. */
  exportAllProducts(onProgress?: (fraction: number) => void, opts?: ExportOptions): AsyncIterable<ProductSnapshot>;
  createProduct(input: ProductInput): Promise<ProductSnapshot>;
  updateProduct(id: string, patch: Partial<Omit<ProductInput, "variants" | "options" | "images">>): Promise<ProductSnapshot>;
  deleteProduct(id: string): Promise<void>;
  setProductStatus(id: string, status: ProductStatus): Promise<void>;
  setTargetGender(id: string, gender: TargetGenderValue): Promise<void>;
  setVariantColorHex(productId: string, values: { variantId: string; hex: string | null }[]): Promise<void>;
  updateOptionValue(productId: string, optionName: string, from: string, to: string): Promise<ProductSnapshot>;
  deleteOptionValue(productId: string, optionName: string, value: string): Promise<ProductSnapshot>;
  /**
   * (Added for Taobao re-imports.) Creates, updates (price, compare-at price, SKU) and deletes
   * variants of an existing product; answers the product afterwards. Refused (CommerceError,
   * nothing changed) when: a variant id is not the product's (404), a created variant does not
   * name exactly the product's options or repeats an existing combination (422), a price is not a
   * non-negative amount (422), or no variant would be left (422). Local: one transaction.
   * Shopify: productVariantsBulkCreate / BulkUpdate / BulkDelete, checked before the first call.
   */
  updateProductVariants(productId: string, changes: VariantChanges): Promise<ProductSnapshot>;

  // Media
  reorderMedia(productId: string, mediaIdsInOrder: string[]): Promise<void>;
  appendVariantMedia(productId: string, pairs: { variantId: string; mediaId: string }[]): Promise<void>;
  /**
   * Adds an image (from a URL the store can fetch) to the product's media: appended, or inserted at
   * `position` (0-based; the images from there on move one place down). Answers the new media
   * (`id` is its media id; `url` is our URL until the store has processed the image).
   */
  addProductImage(productId: string, image: { url: string; altText?: string | null; position?: number }): Promise<ImageSnapshot>;
  /**
   * (Added for proposed image edits.) Removes media from the product (variants showing it lose
   * their image). Unknown media ids: CommerceError 404, nothing removed.
   * Shopify: `fileUpdate` with `referencesToRemove` (productDeleteMedia is deprecated).
   */
  deleteProductMedia(productId: string, mediaIds: string[]): Promise<void>;
  /**
   * (Added for proposed variant images.) Makes `image` THE image of one variant: the image is added
   * to the product's media and attached to the variant, replacing the media the variant had (a
   * Shopify variant shows one media). `url` must be reachable by the store (Shopify fetches it).
   * Answers the new media's id and the image URL as the store now serves it.
   */
  setVariantImage(productId: string, variantId: string, image: { url: string; altText?: string | null }): Promise<{ mediaId: string; imageUrl: string }>;

  // Inventory
  inventoryLevels(opts: { productIds?: string[]; outOfStockOnly?: boolean }): Promise<InventoryLevel[]>;
  setInventory(levels: { variantId: string; available: number }[]): Promise<void>;
  /** Optional (added): the product of an inventory item (inventory_levels/update webhooks name only the item). */
  productIdForInventoryItem?(inventoryItemId: string): Promise<string | null>;

  // Publishing (Shopify: publishablePublish with a future publishDate for scheduled publishing)
  publishProduct(productId: string, opts?: { publishDate?: Date }): Promise<void>;
  unpublishProduct(productId: string): Promise<void>;

  // Orders, fulfilment, returns
  getOrder(id: string): Promise<OrderSnapshot | null>;
  listOrders(opts: { cursor?: string | null; limit: number; customerId?: string; query?: string }): Promise<Page<OrderSnapshot>>;
  /** `notifyCustomer` (default true): whether the store emails the customer (Shopify orderCancel's notifyCustomer). */
  cancelOrder(id: string, opts: { reason: CancelReason; staffNote?: string; refund: boolean; restock: boolean; notifyCustomer?: boolean }): Promise<void>;
  fulfillOrderLines(orderId: string, opts: { lines: { orderLineId: string; quantity: number }[]; trackingNumber?: string; trackingCompany?: string; notifyCustomer: boolean }): Promise<{ fulfillmentId: string }>;
  updateTracking(fulfillmentId: string, opts: { trackingNumber: string; trackingCompany?: string }): Promise<void>;
  /**
   * (Added for admin orders, issue 16.) Changes the order's note, tags and/or shipping address;
   * fields left undefined stay. Local: the order row. Shopify: orderUpdate. Unknown order: 404.
   */
  updateOrder(id: string, patch: OrderUpdateInput): Promise<void>;
  requestReturn(orderId: string, lines: ReturnLineInput[]): Promise<{ returnId: string }>;

  // Returns, the merchant's side (added for issue 16). `returnId` is the store's id: the Return's
  // shopify_return_id with Shopify, the Return's own id locally. Locally the app's returns rows are
  // the store's record (the admin returns service writes them), so these only check and refund.
  /** Approves a requested return (Shopify: returnApproveRequest). */
  approveReturn(returnId: string, opts: { notifyCustomer: boolean }): Promise<void>;
  /** Declines a requested return (Shopify: returnDeclineRequest). */
  declineReturn(returnId: string, opts: { reason: "FINAL_SALE" | "RETURN_PERIOD_ENDED" | "OTHER"; note: string; notifyCustomer: boolean }): Promise<void>;
  /**
   * Sends the shopper the return label and/or tracking for the parcel coming back (Shopify: a
   * reverse delivery on each of the return's reverse fulfilment orders,
   * reverseDeliveryCreateWithShipping).
   */
  sendReturnLabel(returnId: string, opts: { trackingNumber?: string | null; labelUrl?: string | null; notifyCustomer: boolean }): Promise<void>;
  /**
   * (Added for the Shopify return lifecycle.) The tracking of the parcel coming back changed or
   * was first given on its way back. Shopify: reverseDeliveryShippingUpdate on each reverse
   * delivery of the return; a reverse fulfilment order without a delivery yet gets one
   * (reverseDeliveryCreateWithShipping), so the tracking is never lost. Local: the app's row is the record.
   */
  updateReturnTracking(returnId: string, opts: { trackingNumber: string; trackingUrl?: string | null; notifyCustomer: boolean }): Promise<void>;
  /**
   * (Added for the Shopify return lifecycle.) What came back of a return, once it is inspected:
   * received lines go back on sale, the others are recorded as missing. Shopify:
   * reverseFulfillmentOrderDispose (RESTOCKED at the inventory location, MISSING). Local: the
   * variants' stock goes up by the received quantities. `lines` are the return's order lines.
   */
  receiveReturnItems(returnId: string, opts: { lines: { orderLineId: string; quantity: number; received: boolean }[] }): Promise<void>;
  /** (Added for the returns webhooks.) A return as the store holds it; null when the store has none. */
  getReturn(returnId: string): Promise<ReturnSnapshot | null>;
  /** Cancels an approved return before anything came back (Shopify: returnCancel). */
  cancelReturn(returnId: string, opts: { notifyCustomer: boolean }): Promise<void>;
  /**
   * Refunds what came back of a return to the original payment and closes the return (Shopify:
   * returnProcess with the received line items and a refund of `amount` on the order's sale
   * transaction, then returnClose unless processing closed it). `lines` are the order's line items
   * and quantities received.
   */
  refundReturn(returnId: string, opts: { orderId: string; lines: { orderLineId: string; quantity: number }[]; amount: string; currencyCode: string; notifyCustomer: boolean }): Promise<{ refundId: string | null }>;
}

/** Thrown by adapters when the store refuses an operation (Shopify userErrors, local validation). */
export class CommerceError extends Error {
  constructor(
    message: string,
    readonly userErrors: { field?: string[] | null; message: string }[] = [],
    readonly status: 400 | 404 | 409 | 422 | 429 | 502 = 422,
  ) {
    super(message);
    this.name = "CommerceError";
  }
}
