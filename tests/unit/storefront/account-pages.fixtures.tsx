/**
 * Server renders of the shopper's list pages (Following, Saved, Notifications, Orders, Returns, a
 * collection) and the sign-in form, each in one state: the first page loading, nothing loaded
 * because of an error, a later page failed, empty, or a list. The query cache is seeded (errors
 * included) and the API client fails if called; effects do not run in a server render.
 */
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { NotificationRequest, OrderSummary, ProductCard, ReturnEntry, Store, User, UserCollection } from "~/contract";
import { ApiClientError } from "~/client";
import { renderStorefront, shopper } from "../../helpers/storefront-render";
import { COLLECTIONS_KEY, FOLLOWING_LIST_KEY, SAVED_LIST_KEY } from "../../../storefront/src/lib/saved";
import { NOTIFICATIONS_KEY, ORDERS_KEY, RETURNS_KEY } from "../../../storefront/src/lib/orders";

export const user = shopper;
export const render = (path: string, seed?: Seed, u?: User | null) => renderStorefront(path, seed, u);
export const guest = () => user({ auth_provider: "guest", email: null });

export const product = (i: number): ProductCard => ({
  id: `gid://shopify/Product/${i}`,
  title: `Linen coat ${i}`,
  handle: `linen-coat-${i}`,
  vendor: "Atelier Nord",
  productType: "Coat",
  availableForSale: true,
  featuredImage: { url: `/uploads/images/p${i}.jpg`, altText: null },
  priceRange: { minVariantPrice: { amount: "120.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "120.00", currencyCode: "EUR" } },
  target_gender: "womenswear",
  colorHexes: [],
  storeId: null,
});

export const store: Store = {
  id: "s1",
  name: "Rose Atelier",
  handle: "rose-atelier",
  description: null,
  logo_url: null,
  banner_url: null,
  size_recommendation: null,
  target_gender: "womenswear",
  vendor_id: "v1",
  sort_order: 0,
  productCount: 1,
  followerCount: 2,
  created_at: "2025-01-01T00:00:00.000Z",
  updated_at: "2025-01-01T00:00:00.000Z",
};

export const order: OrderSummary = {
  id: "gid://shopify/Order/5400004",
  name: "#1004",
  status: "open",
  stage: "shipped",
  financial_status: "paid",
  fulfillment_status: null,
  created_at: "2025-03-04T10:00:00.000Z",
  cancelled_at: null,
  total: { amount: "240.00", currencyCode: "EUR" },
  item_count: 2,
  items_preview: [{ title: "Linen coat", image_url: "/uploads/images/p1.jpg" }],
  can_cancel: false,
};

export const returnEntry: ReturnEntry = {
  id: "r1",
  kind: "request",
  order: { id: "gid://shopify/Order/5400004", name: "#1004" },
  status: "REQUESTED",
  return_status: null,
  reason: "SIZE_TOO_SMALL",
  note: null,
  items: [{ order_item_id: "i1", title: "Linen coat", variant_title: "M", image_url: null, quantity: 1 }],
  tracking: null,
  refund: null,
  created_at: "2025-03-05T10:00:00.000Z",
  updated_at: "2025-03-05T10:00:00.000Z",
  timeline: [{ key: "requested", label: "Requested", state: "current", at: "2025-03-05T10:00:00.000Z" }],
};

export const notification: NotificationRequest = {
  id: "n1",
  kind: "back_in_stock",
  status: "active",
  email: "ada@example.test",
  created_at: "2025-03-01T10:00:00.000Z",
  sent_at: null,
  product: { id: "gid://shopify/Product/1", title: "Linen coat", handle: "linen-coat", image_url: null, availableForSale: false },
  variant: null,
  search: null,
  drop: null,
};

export const collection: UserCollection = {
  id: "c1",
  name: "Winter knits",
  description: "Warm things",
  image_url: null,
  is_ai_generated: false,
  prompt: null,
  productCount: 1,
  previewImages: [],
  created_at: "2025-01-01T00:00:00.000Z",
  updated_at: "2025-01-01T00:00:00.000Z",
};

export const apiError = (message: string, status = 503) => new ApiClientError(status, "unavailable", message);

type Seed = (qc: QueryClient) => void;

/** Pages of an infinite query as TanStack Query keeps them. */
export const pages = <T,>(...items: T[]) => ({ pages: items, pageParams: items.map(() => undefined) });

/** A query that failed: with nothing loaded, or (given `data`) when its next page failed. */
export function seedError(qc: QueryClient, queryKey: QueryKey, error: Error, data?: unknown) {
  qc.getQueryCache()
    .build(qc, { queryKey })
    .setState({
      status: "error",
      error,
      data,
      dataUpdatedAt: data === undefined ? 0 : Date.now(),
      errorUpdatedAt: Date.now(),
      fetchStatus: "idle",
      fetchMeta: data === undefined ? null : { fetchMore: { direction: "forward" } },
    });
}


/** The page's own markup: its `<section>` (found by its test id) with everything in it. */
export function pageSection(html: string, testId: string): string {
  const at = html.indexOf(`data-testid="${testId}"`);
  if (at < 0) throw new Error(`no ${testId} in the page`);
  const start = html.lastIndexOf("<section", at);
  let depth = 0;
  const tag = /<section[\s>]|<\/section>/g;
  tag.lastIndex = start;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    depth += m[0] === "</section>" ? -1 : 1;
    if (depth === 0) return html.slice(start, m.index + m[0].length);
  }
  throw new Error(`${testId}: unclosed section`);
}

/** Without React's text separators, for reading text. */
export const text = (html: string) => html.replace(/<!-- -->/g, "");

const collectionKey = [...COLLECTIONS_KEY, "one", "c1"];
const collectionProductsKey = [...COLLECTIONS_KEY, "products", "c1"];
const withCollection: Seed = (qc) => qc.setQueryData(collectionKey, { data: collection });

/** Every state of every page, by name: the whole document's HTML. */
export const CASES = {
  followingPending: () => render("/following"),
  followingError: () => render("/following", (qc) => seedError(qc, FOLLOWING_LIST_KEY, apiError("The server is down"))),
  followingErrorFallback: () => render("/following", (qc) => seedError(qc, FOLLOWING_LIST_KEY, new Error("x"))),
  followingNextPageError: () =>
    render("/following", (qc) =>
      seedError(qc, FOLLOWING_LIST_KEY, new Error("x"), pages({ items: [{ store_id: "s1", createdAt: "2025-01-01T00:00:00.000Z", store }], nextCursor: "n2" }))
    ),
  followingEmpty: () => render("/following", (qc) => qc.setQueryData(FOLLOWING_LIST_KEY, pages({ items: [], nextCursor: null }))),
  followingGuestEmpty: () => render("/following", (qc) => qc.setQueryData(FOLLOWING_LIST_KEY, pages({ items: [], nextCursor: null })), guest()),
  followingList: () =>
    render("/following", (qc) =>
      qc.setQueryData(FOLLOWING_LIST_KEY, pages({ items: [{ store_id: "s1", createdAt: "2025-01-01T00:00:00.000Z", store }], nextCursor: "n2" }))
    ),
  followingNoSession: () => render("/following", () => undefined, null),

  savedPending: () => render("/saved"),
  savedError: () => render("/saved", (qc) => seedError(qc, SAVED_LIST_KEY, apiError("The server is down"))),
  savedNextPageError: () =>
    render("/saved", (qc) =>
      seedError(
        qc,
        SAVED_LIST_KEY,
        apiError("Page two failed"),
        pages({ items: [{ product_id: product(1).id, createdAt: "2025-01-01T00:00:00.000Z", product: product(1) }], nextCursor: "n2" })
      )
    ),
  savedEmpty: () => render("/saved", (qc) => qc.setQueryData(SAVED_LIST_KEY, pages({ items: [], nextCursor: null }))),
  savedList: () =>
    render("/saved", (qc) =>
      qc.setQueryData(
        SAVED_LIST_KEY,
        pages({
          items: [
            { product_id: product(1).id, createdAt: "2025-01-02T00:00:00.000Z", product: product(1) },
            { product_id: "gid://shopify/Product/9", createdAt: "2025-01-01T00:00:00.000Z", product: null },
          ],
          nextCursor: null,
        })
      )
    ),

  notificationsGuest: () => render("/account/notifications", () => undefined, guest()),
  notificationsPending: () => render("/account/notifications"),
  notificationsError: () => render("/account/notifications", (qc) => seedError(qc, NOTIFICATIONS_KEY, apiError("The server is down"))),
  notificationsEmpty: () => render("/account/notifications", (qc) => qc.setQueryData(NOTIFICATIONS_KEY, pages({ items: [], nextCursor: null }))),
  notificationsList: () => render("/account/notifications", (qc) => qc.setQueryData(NOTIFICATIONS_KEY, pages({ items: [notification], nextCursor: "n2" }))),
  notificationsDropOffer: () => render("/account/notifications?drop=d1", (qc) => qc.setQueryData(NOTIFICATIONS_KEY, pages({ items: [], nextCursor: null }))),

  ordersGuest: () => render("/account/orders", () => undefined, guest()),
  ordersPending: () => render("/account/orders"),
  ordersError: () => render("/account/orders", (qc) => seedError(qc, ORDERS_KEY, apiError("The server is down"))),
  ordersNextPageError: () => render("/account/orders", (qc) => seedError(qc, ORDERS_KEY, new Error("x"), pages({ items: [order], nextCursor: "n2" }))),
  ordersEmpty: () => render("/account/orders", (qc) => qc.setQueryData(ORDERS_KEY, pages({ items: [], nextCursor: null }))),
  ordersList: () => render("/account/orders", (qc) => qc.setQueryData(ORDERS_KEY, pages({ items: [order], nextCursor: "n2" }))),

  returnsGuest: () => render("/account/returns", () => undefined, guest()),
  returnsPending: () => render("/account/returns"),
  returnsError: () => render("/account/returns", (qc) => seedError(qc, RETURNS_KEY, apiError("The server is down"))),
  returnsNextPageError: () => render("/account/returns", (qc) => seedError(qc, RETURNS_KEY, new Error("x"), pages({ items: [returnEntry], nextCursor: "n2" }))),
  returnsEmpty: () => render("/account/returns", (qc) => qc.setQueryData(RETURNS_KEY, pages({ items: [], nextCursor: null }))),
  returnsList: () => render("/account/returns", (qc) => qc.setQueryData(RETURNS_KEY, pages({ items: [returnEntry], nextCursor: null }))),

  collectionPending: () => render("/my-collections/c1"),
  collectionNotFound: () => render("/my-collections/c1", (qc) => seedError(qc, collectionKey, apiError("Collection not found", 404))),
  collectionError: () => render("/my-collections/c1", (qc) => seedError(qc, collectionKey, apiError("The server is down"))),
  collectionProductsPending: () => render("/my-collections/c1", withCollection),
  collectionProductsError: () =>
    render("/my-collections/c1", (qc) => {
      withCollection(qc);
      seedError(qc, collectionProductsKey, apiError("The server is down"));
    }),
  collectionProductsEmpty: () =>
    render("/my-collections/c1", (qc) => {
      withCollection(qc);
      qc.setQueryData(collectionProductsKey, pages({ data: { items: [], nextCursor: null } }));
    }),
  collectionProductsList: () =>
    render("/my-collections/c1", (qc) => {
      withCollection(qc);
      qc.setQueryData(
        collectionProductsKey,
        pages({
          data: {
            items: [
              { product_id: product(1).id, addedAt: "2025-01-01T00:00:00.000Z", product: product(1) },
              { product_id: "gid://shopify/Product/9", addedAt: "2025-01-01T00:00:00.000Z", product: null },
            ],
            nextCursor: "n2",
          },
        })
      );
    }),

  login: () => render("/login", () => undefined, guest()),
  loginSignedIn: () => render("/login"),
} satisfies Record<string, () => string>;
