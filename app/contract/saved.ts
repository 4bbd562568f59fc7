/**
 * A shopper's own lists (SPEC §3 SavedProduct and UserFavoriteStore, §4 toggles, §5, §9 page sizes)
 * and their style preferences (SPEC §3 metadata.interests, §4 gender preference).
 *
 * Who may save and follow: SPEC §5 says saving a product or following a store "requires an
 * authenticated user". Here every visitor is authenticated: the storefront creates a guest on the
 * first visit and the guest holds a token (DESIGN "Identity"). So these endpoints are `access.user`:
 * a caller without a valid token gets 401 "User is not authenticated" (SPEC §8), guests may save
 * and follow. That is consistent with the rest of identity: signing in or registering keeps what a
 * guest saved (`mergeGuestIntoMe` moves saved products, follows and collections into the account),
 * and SPEC §6 names only the reviewable-orders list and back-in-stock checks as non-guest features.
 * Every endpoint acts on the caller's own rows only: no user id is ever taken from the request.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, TargetGender, intParam } from "./common";
import { Messages } from "./messages";
import { ProductCardSchema } from "./products";
import { StoreSchema } from "./stores";
import { toProductGid } from "../lib/gid";

/** SPEC §9: saved products 20 a page, newest first; favourite stores 20. */
export const SAVED_PRODUCTS_PAGE = 20;
export const FAVORITE_STORES_PAGE = 20;
/** The most ids a check call takes (one grid of cards at a time). */
export const SAVED_CHECK_MAX_IDS = 100;
/** Interests: at most this many, each at most INTEREST_MAX_LENGTH characters. */
export const INTERESTS_MAX = 30;
export const INTEREST_MAX_LENGTH = 40;

/** `ids=a,b` or `ids=a&ids=b`: trimmed, empty entries dropped, at most `max`. */
const IdList = (max: number, normalise: (id: string) => string = (id) => id) =>
  z.preprocess(
    (v) =>
      v === undefined
        ? []
        : (Array.isArray(v) ? v : [v])
            .flatMap((x) => String(x).split(","))
            .map((x) => x.trim())
            .filter(Boolean),
    z.array(z.string().transform(normalise)).max(max, `At most ${max} ids at a time`)
  );

const Cursor = z.string().trim().max(500).optional();

const ProductIdBody = z
  .string({ error: Messages.NO_PRODUCT_ID })
  .trim()
  .refine((v) => v !== "" && v !== "undefined" && v !== "null", Messages.NO_PRODUCT_ID)
  .transform(toProductGid);

export const SavedProductItemSchema = z.object({
  product_id: z.string(),
  createdAt: IsoDate,
  /** The product as a card; null when it is no longer shown to shoppers (unpublished, archived). */
  product: ProductCardSchema.nullable(),
});

export const FavoriteStoreItemSchema = z.object({
  store_id: z.string(),
  createdAt: IsoDate,
  store: StoreSchema,
});

export const StylePreferencesSchema = z.object({
  /** SPEC §3: metadata.interests, comma-separated (gender words included). */
  interests: z.string(),
  /** The same interests as a list. */
  interestList: z.array(z.string()),
  /** SPEC §4 from the interests: exactly one of menswear/womenswear means that gender, otherwise both. */
  gender: TargetGender,
  stylePreferences: z.array(z.string()),
  /** Interests worth offering: the catalogue's most used tags (each matches products). */
  suggestions: z.array(z.string()),
});
export type StylePreferences = z.output<typeof StylePreferencesSchema>;

const Interest = z.string().trim().toLowerCase().min(1).max(INTEREST_MAX_LENGTH, `Each interest is at most ${INTEREST_MAX_LENGTH} characters`);

export const savedEndpoints = {
  savedProductsList: endpoint({
    method: "GET",
    path: "/users/saved-products",
    summary: "The caller's saved products, newest first (cursor pages of 20)",
    tags: ["Saved"],
    access: access.user,
    query: z.object({ cursor: Cursor, limit: intParam(SAVED_PRODUCTS_PAGE, 1, 100) }),
    response: z.object({ items: z.array(SavedProductItemSchema), nextCursor: z.string().nullable() }),
  }),
  savedProductsToggle: endpoint({
    method: "POST",
    path: "/users/saved-products/toggle",
    summary: "Save or unsave a product (toggles; with `saved` it sets that state, so a repeated request changes nothing)",
    tags: ["Saved"],
    access: access.user,
    body: z.object({ product_id: ProductIdBody, saved: z.boolean().optional() }),
    response: z.object({ product_id: z.string(), saved: z.boolean() }),
  }),
  savedProductsCheck: endpoint({
    method: "GET",
    path: "/users/saved-products/check",
    summary: "Which of these products the caller saved (ids comma-separated, at most 100)",
    tags: ["Saved"],
    access: access.user,
    query: z.object({ ids: IdList(SAVED_CHECK_MAX_IDS, toProductGid) }),
    response: z.object({ saved: z.array(z.string()) }),
  }),
  favoriteStoresList: endpoint({
    method: "GET",
    path: "/users/favorite-stores",
    summary: "The stores the caller follows, newest first (cursor pages of 20)",
    tags: ["Saved"],
    access: access.user,
    query: z.object({ cursor: Cursor, limit: intParam(FAVORITE_STORES_PAGE, 1, 100) }),
    response: z.object({ items: z.array(FavoriteStoreItemSchema), nextCursor: z.string().nullable() }),
  }),
  favoriteStoresToggle: endpoint({
    method: "POST",
    path: "/users/favorite-stores/toggle",
    summary: "Follow or unfollow a store: deletes the favourite when it exists, else creates it (with `following`, sets that state)",
    tags: ["Saved"],
    access: access.user,
    body: z.object({ store_id: z.string().trim().min(1, "must not be empty").max(200), following: z.boolean().optional() }),
    response: z.object({ store_id: z.string(), following: z.boolean(), followerCount: z.number().int() }),
  }),
  favoriteStoresCheck: endpoint({
    method: "GET",
    path: "/users/favorite-stores/check",
    summary: "Which of these stores the caller follows (ids comma-separated, at most 100)",
    tags: ["Saved"],
    access: access.user,
    query: z.object({ ids: IdList(SAVED_CHECK_MAX_IDS) }),
    response: z.object({ following: z.array(z.string()) }),
  }),
  usersStylePreferences: endpoint({
    method: "GET",
    path: "/users/style-preferences",
    summary: "The caller's interests, the gender preference they imply, and suggested interests",
    tags: ["Saved"],
    access: access.user,
    response: StylePreferencesSchema,
  }),
  usersStylePreferencesUpdate: endpoint({
    method: "PATCH",
    path: "/users/style-preferences",
    summary: "Replace the caller's interests (comma-separated or a list) and/or set the gender preference they carry",
    tags: ["Saved"],
    access: access.user,
    body: z
      .object({
        interests: z
          .union([z.string().max(2000), z.array(z.string().max(200)).max(100)])
          .transform((v) => (typeof v === "string" ? v.split(",") : v).map((t) => t.trim()).filter(Boolean))
          .pipe(z.array(Interest).max(INTERESTS_MAX, `At most ${INTERESTS_MAX} interests`))
          .optional(),
        /** menswear or womenswear puts that word in the interests (and takes the other out); both takes both out. */
        gender: TargetGender.optional(),
        stylePreferences: z.array(z.string().trim().min(1).max(50)).max(30).optional(),
      })
      .refine((b) => b.interests !== undefined || b.gender !== undefined || b.stylePreferences !== undefined, "Send interests, gender or stylePreferences"),
    response: StylePreferencesSchema,
  }),
};
