/**
 * Search (SPEC §7 "Search", §3 search results, §5 notification request, §9 constants): text
 * search with parsed filters, facets and pages, and saved-search notifications by email.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, TargetGender } from "./common";
import { Messages } from "./messages";
import { ProductCardSchema } from "./products";

export const SEARCH_SORTS = ["Relevance", "Price low to high", "Price high to low", "Newest"] as const;
export const SearchSortSchema = z.enum(SEARCH_SORTS);
/** SPEC §9: page size 20 on desktop, 14 on mobile; pages from 1. */
export const SEARCH_PAGE_SIZE = 20;
export const SEARCH_PAGE_SIZE_MOBILE = 14;
/** SPEC §2: the storefront debounces search input by 500 ms. */
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_QUERY_MAX = 200;

const FilterList = z.array(z.string().trim().min(1, "must not be empty").max(100)).max(50, "at most 50 values");
const Price = z.number().min(0, "must be 0 or more").max(1_000_000);

export const SearchFiltersSchema = z
  .strictObject({
    target_gender: TargetGender.optional(),
    colors: FilterList.optional(),
    materials: FilterList.optional(),
    productTypes: FilterList.optional(),
    sizes: FilterList.optional(),
    storeIds: FilterList.optional(),
    priceMin: Price.nullish().transform((v) => v ?? undefined),
    priceMax: Price.nullish().transform((v) => v ?? undefined),
    available: z.boolean().nullish().transform((v) => v ?? undefined),
  })
  .refine((f) => f.priceMin === undefined || f.priceMax === undefined || f.priceMin <= f.priceMax, {
    message: "filters.priceMin must not be more than filters.priceMax",
  });
export type SearchFiltersInput = z.input<typeof SearchFiltersSchema>;

/** The effective filters of a search, as the server applied them. */
export const AppliedFiltersSchema = z.object({
  target_gender: TargetGender.optional(),
  colors: z.array(z.string()).optional(),
  materials: z.array(z.string()).optional(),
  productTypes: z.array(z.string()).optional(),
  sizes: z.array(z.string()).optional(),
  storeIds: z.array(z.string()).optional(),
  priceMin: z.number().optional(),
  priceMax: z.number().optional(),
  available: z.boolean().optional(),
});

export const FILTER_KEYS = ["target_gender", "colors", "materials", "productTypes", "sizes", "storeIds", "priceMin", "priceMax", "available"] as const;

/** A filter that came from the query text: shown as a removable chip. */
export const ParsedChipSchema = z.object({
  key: z.enum(FILTER_KEYS),
  value: z.union([z.string(), z.number(), z.boolean()]),
  label: z.string(),
});

const FacetValue = z.object({ value: z.string(), label: z.string(), count: z.number().int() });

export const SearchFacetsSchema = z.object({
  /** Products matching the query and filters. */
  total: z.number().int(),
  /** Menswear and womenswear count unisex products too; "both" counts every product. */
  gender: z.array(FacetValue),
  /** Fixed buckets; `min`/`max` are the filter values that select the bucket (max null: no upper bound). */
  price: z.array(z.object({ key: z.string(), label: z.string(), min: z.number(), max: z.number().nullable(), count: z.number().int() })),
  /** Colour families (and catalogue colours outside any family). */
  colors: z.array(FacetValue),
  sizes: z.array(FacetValue),
  productTypes: z.array(FacetValue),
  stores: z.array(z.object({ id: z.string(), name: z.string(), count: z.number().int() })),
  availability: z.object({ inStock: z.number().int(), outOfStock: z.number().int() }),
});

export const SearchResponseSchema = z.object({
  results: z.array(ProductCardSchema),
  filters: z.object({
    applied: AppliedFiltersSchema,
    parsed: z.array(ParsedChipSchema),
    facets: SearchFacetsSchema,
  }),
  query: z.object({
    raw: z.string(),
    /** The text left after parsing filters out of the query. */
    text: z.string(),
    /** The text with typos corrected, when any was. */
    corrected: z.string().nullable(),
    /** A stable id of the normalised text and the applied filters (for search notifications). */
    searchId: z.string(),
  }),
  pagination: z.object({
    hasNextPage: z.boolean(),
    hasPreviousPage: z.boolean(),
    currentPage: z.number().int(),
    /** Opaque cursor of the next page, or null when this is the last one. */
    cursor: z.string().nullable(),
  }),
});
export type SearchResponse = z.output<typeof SearchResponseSchema>;

const SearchId = z.string({ error: Messages.SEARCH_ID_REQUIRED }).trim().min(1, Messages.SEARCH_ID_REQUIRED).max(100);

export const SearchNotificationSchema = z.object({
  id: z.string(),
  kind: z.literal("search"),
  searchId: z.string(),
  query: z.string(),
  filters: AppliedFiltersSchema,
  email: z.string(),
  status: z.enum(["active", "sent", "unsubscribed"]),
  /** New products published up to this time have been considered. */
  checkedUntil: IsoDate,
  created_at: IsoDate,
});

export const searchEndpoints = {
  searchProducts: endpoint({
    method: "POST",
    path: "/search",
    summary:
      "Search products (guests and anonymous callers too). Filter words of the query (gender, colours, materials, garment types, sizes, price bounds, stores, \"in stock\") become filters and removable chips unless skipAutoParsing; the rest is matched with full-text search (typos corrected, the last word as a prefix, word-vector synonyms) and ranked by relevance blended with text-vector similarity. Answers the page of product cards, the applied and parsed filters with facet counts, the query (text left, correction, searchId) and the pagination (page/limit or an opaque cursor).",
    tags: ["Search"],
    access: access.public,
    body: z.object({
      query: z.string({ error: "must be text" }).trim().max(SEARCH_QUERY_MAX, `must be at most ${SEARCH_QUERY_MAX} characters`).default(""),
      page: z.coerce.number().int("must be a whole number").min(1, "must be 1 or more").max(10_000, "must be at most 10000").default(1),
      limit: z.coerce.number().int("must be a whole number").min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(SEARCH_PAGE_SIZE),
      filters: SearchFiltersSchema.optional(),
      sort: z.enum(SEARCH_SORTS, { error: `must be one of: ${SEARCH_SORTS.join(", ")}` }).default("Relevance"),
      cursor: z.string().trim().min(1).max(1000).optional(),
      skipAutoParsing: z.boolean().default(false),
    }),
    response: SearchResponseSchema,
  }),
  searchNotificationCreate: endpoint({
    method: "POST",
    path: "/users/notification-requests/search",
    summary:
      "Be emailed when new products match a search: `searchId` (from POST /search), its query text and filters. Idempotent per user and searchId; 422 when the caller has no email address.",
    tags: ["Search"],
    access: access.user,
    body: z.object({
      searchId: SearchId,
      query: z.string().trim().max(SEARCH_QUERY_MAX, `must be at most ${SEARCH_QUERY_MAX} characters`).default(""),
      filters: SearchFiltersSchema.optional(),
    }),
    response: SearchNotificationSchema,
    status: 201,
  }),
  searchNotificationDelete: endpoint({
    method: "DELETE",
    path: "/users/notification-requests/search/{searchId}",
    summary: "Stop the caller's notifications for a search; 404 when there are none",
    tags: ["Search"],
    access: access.user,
    params: z.object({ searchId: SearchId }),
    response: z.object({ ok: z.literal(true), searchId: z.string() }),
  }),
  notificationsUnsubscribe: endpoint({
    method: "GET",
    path: "/notifications/unsubscribe/{token}",
    summary: "The unsubscribe link of a notification email: stops that notification request (no sign-in needed)",
    tags: ["Search"],
    access: access.public,
    params: z.object({ token: z.string().trim().min(1).max(200) }),
    response: z.object({ ok: z.literal(true), kind: z.enum(["back_in_stock", "search", "drop"]), status: z.literal("unsubscribed"), message: z.string() }),
  }),
};
