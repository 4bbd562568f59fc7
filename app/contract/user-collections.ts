/**
 * A shopper's own collections (SPEC §7 "User collections (responses wrapped in data)"): create,
 * list, get, rename, delete, their products, add and remove products. AI-generated collections
 * (`is_ai_generated`, with their `prompt`) are listed and edited here like any other; they are
 * created by `POST /user-collections/generate-personalized-collection` (the assistant area).
 *
 * Access: `access.user`, as saved products and follows (see ./saved.ts): guests are authenticated
 * by their guest token and their collections move into the account when they sign in. Every
 * endpoint acts on the caller's own collections; another shopper's collection answers 404, the
 * same as one that does not exist, so ids cannot be probed.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, intParam } from "./common";
import { ImageSchema, ProductCardSchema } from "./products";
import { Messages } from "./messages";
import { toProductGid } from "../lib/gid";

export const USER_COLLECTION_NAME_MAX = 100;
export const USER_COLLECTION_DESCRIPTION_MAX = 1000;
/** The most collections one shopper keeps, and the most products in one collection. */
export const USER_COLLECTIONS_MAX = 200;
export const USER_COLLECTION_PRODUCTS_MAX = 500;
export const USER_COLLECTION_PRODUCTS_PAGE = 20;
/** Product images shown on a collection's tile. */
export const USER_COLLECTION_PREVIEW_IMAGES = 4;

export const UserCollectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  image_url: z.string().nullable(),
  is_ai_generated: z.boolean(),
  prompt: z.string().nullable(),
  productCount: z.number().int(),
  /** Featured images of the first products (visible ones), for the collection's tile. */
  previewImages: z.array(ImageSchema),
  /** Only in lists asked with `product_id`: whether that product is in the collection. */
  containsProduct: z.boolean().optional(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type UserCollection = z.output<typeof UserCollectionSchema>;

export const UserCollectionProductSchema = z.object({
  product_id: z.string(),
  addedAt: IsoDate,
  /** Null when the product is no longer shown to shoppers. */
  product: ProductCardSchema.nullable(),
});

const CollectionIdParams = z.object({ id: z.string().trim().min(1).max(100) });
const Name = z.string().trim().min(1, "must not be empty").max(USER_COLLECTION_NAME_MAX, `at most ${USER_COLLECTION_NAME_MAX} characters`);
const Description = z.string().trim().max(USER_COLLECTION_DESCRIPTION_MAX, `at most ${USER_COLLECTION_DESCRIPTION_MAX} characters`).nullable().optional();
const ProductIds = z
  .array(
    z
      .string()
      .trim()
      .refine((v) => v !== "" && v !== "undefined" && v !== "null", Messages.NO_PRODUCT_ID)
      .transform(toProductGid),
    { error: "must be an array of product ids" }
  )
  .min(1, Messages.NO_PRODUCT_ID)
  .max(100, "At most 100 products at a time");

const Data = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

export const userCollectionsEndpoints = {
  userCollectionsCreate: endpoint({
    method: "POST",
    path: "/user-collections",
    summary: "Create a collection (optionally with products)",
    tags: ["User collections"],
    access: access.user,
    body: z.object({ name: Name, description: Description, product_ids: ProductIds.optional() }),
    response: Data(UserCollectionSchema),
    status: 201,
  }),
  userCollectionsList: endpoint({
    method: "GET",
    path: "/user-collections",
    summary: "The caller's collections, newest first (AI-generated ones included)",
    tags: ["User collections"],
    access: access.user,
    query: z.object({
      cursor: z.string().trim().max(500).optional(),
      limit: intParam(50, 1, 100),
      /** Marks each collection with `containsProduct` for this product (the "add to collection" menu). */
      product_id: z.string().trim().min(1).max(200).transform(toProductGid).optional(),
    }),
    response: z.object({ data: z.array(UserCollectionSchema), nextCursor: z.string().nullable() }),
  }),
  userCollectionsGet: endpoint({
    method: "GET",
    path: "/user-collections/{id}",
    summary: "One of the caller's collections",
    tags: ["User collections"],
    access: access.user,
    params: CollectionIdParams,
    response: Data(UserCollectionSchema),
  }),
  userCollectionsUpdate: endpoint({
    method: "PATCH",
    path: "/user-collections/{id}",
    summary: "Rename a collection or change its description",
    tags: ["User collections"],
    access: access.user,
    params: CollectionIdParams,
    body: z
      .object({ name: Name.optional(), description: Description })
      .refine((b) => b.name !== undefined || b.description !== undefined, "Send name or description"),
    response: Data(UserCollectionSchema),
  }),
  userCollectionsDelete: endpoint({
    method: "DELETE",
    path: "/user-collections/{id}",
    summary: "Delete a collection (its products stay in the catalogue)",
    tags: ["User collections"],
    access: access.user,
    params: CollectionIdParams,
    response: Data(z.object({ id: z.string(), deleted: z.literal(true) })),
  }),
  userCollectionsProducts: endpoint({
    method: "GET",
    path: "/user-collections/{id}/products",
    summary: "The products of a collection, in the collection's order (cursor pages of 20)",
    tags: ["User collections"],
    access: access.user,
    params: CollectionIdParams,
    query: z.object({ cursor: z.string().trim().max(500).optional(), limit: intParam(USER_COLLECTION_PRODUCTS_PAGE, 1, 100) }),
    response: Data(z.object({ items: z.array(UserCollectionProductSchema), nextCursor: z.string().nullable() })),
  }),
  userCollectionsAddProducts: endpoint({
    method: "POST",
    path: "/user-collections/{id}/products",
    summary: "Add products to a collection (at the end; ones already in it are left as they are)",
    tags: ["User collections"],
    access: access.user,
    params: CollectionIdParams,
    body: z.object({ product_ids: ProductIds }),
    response: Data(z.object({ added: z.array(z.string()), collection: UserCollectionSchema })),
  }),
  userCollectionsRemoveProducts: endpoint({
    method: "DELETE",
    path: "/user-collections/{id}/products",
    summary: "Remove products from a collection (ids not in it are ignored)",
    tags: ["User collections"],
    access: access.user,
    params: CollectionIdParams,
    body: z.object({ product_ids: ProductIds }),
    response: Data(z.object({ removed: z.array(z.string()), collection: UserCollectionSchema })),
  }),
};
