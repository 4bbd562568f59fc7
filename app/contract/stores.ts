/**
 * Stores (SPEC §7 "Stores", §5 store lookup by ids, §9 constants): CRUD, by ids, insertions,
 * rename, featured products with sort order, size recommendation, store names, store products
 * and stores by target gender. Reads are public; writes need `catalog.edit`.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, Ok, TargetGender, intParam } from "./common";
import { ProductCardSchema } from "./products";
import { toProductGid } from "../lib/gid";

export const StoreSchema = z.object({
  id: z.string(),
  name: z.string(),
  handle: z.string(),
  description: z.string().nullable(),
  logo_url: z.string().nullable(),
  banner_url: z.string().nullable(),
  size_recommendation: z.string().nullable(),
  target_gender: TargetGender,
  vendor_id: z.string(),
  sort_order: z.number().int(),
  /** Active products of the store. */
  productCount: z.number().int(),
  followerCount: z.number().int(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Store = z.output<typeof StoreSchema>;

export const StoreWithProductsSchema = StoreSchema.extend({ products: z.array(ProductCardSchema) });

/** SPEC §9 */
export const STORE_PRODUCTS_PAGE = 12;
export const STORES_BY_GENDER_TAKE = 10;
export const STORES_BY_GENDER_PRODUCTS = 12;
export const STORE_NAMES_TAKE = 25;
export const STORE_INSERTION_PRODUCTS = 4;

const StoreIdParams = z.object({ id: z.string().trim().min(1) });
const Handle = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "handle may only contain lower-case letters, digits and single hyphens");
const OptionalText = (max: number) => z.string().trim().max(max).nullable().optional();
const Url = z.string().trim().max(2000).nullable().optional();

const StoreFields = {
  name: z.string().trim().min(1, "must not be empty").max(120),
  handle: Handle.optional(),
  description: OptionalText(5000),
  logo_url: Url,
  banner_url: Url,
  size_recommendation: OptionalText(5000),
  target_gender: TargetGender,
  vendor_id: z.string().trim().min(1, "must not be empty"),
  sort_order: z.number().int().min(0).max(1_000_000),
};

export const StoreCreateBody = z.object({ ...StoreFields, target_gender: TargetGender.default("both"), sort_order: StoreFields.sort_order.optional() });
export const StoreUpdateBody = z
  .object({
    name: StoreFields.name.optional(),
    handle: Handle.optional(),
    description: StoreFields.description,
    logo_url: StoreFields.logo_url,
    banner_url: StoreFields.banner_url,
    size_recommendation: StoreFields.size_recommendation,
    target_gender: TargetGender.optional(),
    vendor_id: StoreFields.vendor_id.optional(),
    sort_order: StoreFields.sort_order.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Send at least one field to update");

/**
 * SPEC §5: ids must be an array; an empty list answers an empty list; every id a non-empty string.
 */
export const STORE_IDS_MAX = 200;
export const StoreIdsBody = z.object({
  ids: z
    .unknown()
    .transform((v, ctx): string[] => {
      const fail = (message: string) => {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      };
      if (v === undefined || v === null) return fail('ids is required: send { "ids": [store ids] }');
      if (!Array.isArray(v)) return fail("ids must be an array of store ids");
      if (v.length > STORE_IDS_MAX) return fail(`Ask for at most ${STORE_IDS_MAX} stores at a time`);
      const bad = v.findIndex((id) => typeof id !== "string" || id.trim() === "");
      if (bad >= 0)
        return fail(`Each id must be a non-empty string (ids[${bad}] is ${typeof v[bad] === "string" ? "empty" : JSON.stringify(v[bad]) ?? typeof v[bad]})`);
      return (v as string[]).map((id) => id.trim());
    })
    .meta({ type: "array", items: { type: "string", minLength: 1 }, maxItems: STORE_IDS_MAX, description: "Store ids (an empty list answers an empty list)" }),
});

const ProductIds = z.array(z.string().trim().min(1, "must be a non-empty string").transform(toProductGid));

export const storesEndpoints = {
  storesList: endpoint({
    method: "GET",
    path: "/stores",
    summary: "List stores (skip/take, filter by target gender and name)",
    tags: ["Stores"],
    access: access.public,
    query: z.object({
      skip: intParam(0, 0, 100_000),
      take: intParam(20, 1, 100),
      target_gender: TargetGender.optional(),
      q: z.string().trim().max(100).optional(),
    }),
    response: z.object({ stores: z.array(StoreSchema), total: z.number().int(), skip: z.number().int(), take: z.number().int() }),
  }),
  storesCreate: endpoint({
    method: "POST",
    path: "/stores",
    summary: "Create a store (the handle is made from the name unless given)",
    tags: ["Stores"],
    access: access.admin("catalog.edit"),
    body: StoreCreateBody,
    response: StoreSchema,
    status: 201,
  }),
  storesByIds: endpoint({
    method: "POST",
    path: "/stores/by-ids",
    summary: "Stores by ids, in the order asked (unknown ids are left out; an empty list answers an empty list)",
    tags: ["Stores"],
    access: access.public,
    body: StoreIdsBody,
    response: z.object({ stores: z.array(StoreSchema) }),
  }),
  storesInsertions: endpoint({
    method: "GET",
    path: "/stores/insertions",
    summary: "Stores to interleave in feeds: featured and most-followed stores with 4 products each",
    tags: ["Stores"],
    access: access.public,
    query: z.object({
      skip: intParam(0, 0, 1000),
      take: intParam(4, 1, 20),
      target_gender: TargetGender.optional(),
    }),
    response: z.object({ stores: z.array(StoreWithProductsSchema) }),
  }),
  storesNames: endpoint({
    method: "GET",
    path: "/stores/names",
    summary: "Store names for pickers (take 25 by default, filter by name)",
    tags: ["Stores"],
    access: access.public,
    query: z.object({ take: intParam(STORE_NAMES_TAKE, 1, 100), q: z.string().trim().max(100).optional() }),
    response: z.object({ stores: z.array(z.object({ id: z.string(), name: z.string(), handle: z.string() })) }),
  }),
  storesByTargetGender: endpoint({
    method: "GET",
    path: "/stores/target-gender/{gender}",
    summary: 'Stores for a target gender with their first products for that gender ("both" products included)',
    tags: ["Stores"],
    access: access.public,
    params: z.object({ gender: TargetGender }),
    query: z.object({
      skip: intParam(0, 0, 100_000),
      take: intParam(STORES_BY_GENDER_TAKE, 1, 50),
      productsPerStore: intParam(STORES_BY_GENDER_PRODUCTS, 0, 50),
    }),
    response: z.object({ stores: z.array(StoreWithProductsSchema), total: z.number().int(), skip: z.number().int(), take: z.number().int() }),
  }),
  storesGetById: endpoint({
    method: "GET",
    path: "/stores/{id}",
    summary: "A store",
    tags: ["Stores"],
    access: access.public,
    params: StoreIdParams,
    response: StoreSchema,
  }),
  storesUpdate: endpoint({
    method: "PATCH",
    path: "/stores/{id}",
    summary: "Update a store",
    tags: ["Stores"],
    access: access.admin("catalog.edit"),
    params: StoreIdParams,
    body: StoreUpdateBody,
    response: StoreSchema,
  }),
  storesDelete: endpoint({
    method: "DELETE",
    path: "/stores/{id}",
    summary: "Delete a store (refused while it has products, unless force=true: its products then have no store)",
    tags: ["Stores"],
    access: access.admin("catalog.edit"),
    params: StoreIdParams,
    query: z.object({ force: z.stringbool().default(false) }),
    response: Ok.extend({ detachedProducts: z.number().int() }),
  }),
  storesRename: endpoint({
    method: "PATCH",
    path: "/stores/{id}/rename",
    summary: "Rename a store (the handle is kept unless updateHandle is true)",
    tags: ["Stores"],
    access: access.admin("catalog.edit"),
    params: StoreIdParams,
    body: z.object({ name: StoreFields.name, updateHandle: z.boolean().default(false) }),
    response: StoreSchema,
  }),
  storesGetFeaturedProducts: endpoint({
    method: "GET",
    path: "/stores/{id}/featured-products",
    summary: "A store's featured products in their sort order (active products)",
    tags: ["Stores"],
    access: access.public,
    params: StoreIdParams,
    response: z.object({ storeId: z.string(), products: z.array(ProductCardSchema.extend({ sort_order: z.number().int() })) }),
  }),
  storesSetFeaturedProducts: endpoint({
    method: "PUT",
    path: "/stores/{id}/featured-products",
    summary: "Replace a store's featured products; their order is the sort order (products must belong to the store)",
    tags: ["Stores"],
    access: access.admin("catalog.edit"),
    params: StoreIdParams,
    body: z.object({ product_ids: ProductIds.max(50, "A store features at most 50 products") }),
    response: z.object({ storeId: z.string(), products: z.array(ProductCardSchema.extend({ sort_order: z.number().int() })) }),
  }),
  storesGetSizeRecommendation: endpoint({
    method: "GET",
    path: "/stores/{id}/size-recommendation",
    summary: "A store's size recommendation",
    tags: ["Stores"],
    access: access.public,
    params: StoreIdParams,
    response: z.object({ storeId: z.string(), size_recommendation: z.string().nullable() }),
  }),
  storesSetSizeRecommendation: endpoint({
    method: "PUT",
    path: "/stores/{id}/size-recommendation",
    summary: "Set (or clear with null or an empty text) a store's size recommendation",
    tags: ["Stores"],
    access: access.admin("catalog.edit"),
    params: StoreIdParams,
    body: z.object({ size_recommendation: z.string().trim().max(5000).nullable() }),
    response: z.object({ storeId: z.string(), size_recommendation: z.string().nullable() }),
  }),
  storesProducts: endpoint({
    method: "GET",
    path: "/stores/{id}/products",
    summary: "A store's active products, newest first (12 a page by default)",
    tags: ["Stores"],
    access: access.public,
    params: StoreIdParams,
    query: z.object({
      skip: intParam(0, 0, 100_000),
      take: intParam(STORE_PRODUCTS_PAGE, 1, 100),
      target_gender: TargetGender.optional(),
    }),
    response: z.object({ products: z.array(ProductCardSchema), total: z.number().int(), skip: z.number().int(), take: z.number().int() }),
  }),
};
