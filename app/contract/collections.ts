/**
 * Collections (SPEC §7 "Collections", §4 states, §9 suggestion constants). Reads are public and
 * see active collections only (a draft or archived collection is 404 to the public; admins with
 * `catalog.edit` see every status); writes need `catalog.edit`; partner collections are scoped to
 * a vendor (a VENDOR caller may use only their own vendor id).
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, Ok, TargetGender, intParam } from "./common";
import { ProductCardSchema } from "./products";
import { toProductGid } from "../lib/gid";

export const CollectionStatus = z.enum(["draft", "active", "archived"]);
export type CollectionStatus = z.infer<typeof CollectionStatus>;

export const CollectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  description: z.string().nullable(),
  image_url: z.string().nullable(),
  status: CollectionStatus,
  featured: z.boolean(),
  version: z.number().int(),
  view_count: z.number().int(),
  target_gender: TargetGender,
  sort_order: z.number().int(),
  partner_id: z.string().nullable(),
  published_at: IsoDate.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
  /** Products in the collection (any product status). */
  productCount: z.number().int(),
});
export type Collection = z.output<typeof CollectionSchema>;

export const CollectionWithProductsSchema = CollectionSchema.extend({ products: z.array(ProductCardSchema) });

/** SPEC §9 and our defaults. */
export const COLLECTION_SUGGESTION_PRODUCTS = 20;
export const COLLECTION_SUGGESTION_TOP_K = 5;
export const COLLECTION_WITH_PRODUCTS_TAKE = 20;
export const COLLECTION_INSERTION_PRODUCTS = 4;
export const COLLECTION_MAX_PRODUCTS = 1000;

const IdParams = z.object({ id: z.string().trim().min(1) });
const Handle = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "handle may only contain lower-case letters, digits and single hyphens");
const Title = z.string().trim().min(1, "must not be empty").max(200);
const Text = (max: number) => z.string().trim().max(max).nullable().optional();
const ProductIdList = z
  .array(z.string().trim().min(1, "must be a non-empty string").transform(toProductGid), {
    error: (i) => (i.input === undefined ? undefined : "must be an array of product ids"),
  })
  .max(COLLECTION_MAX_PRODUCTS, `Send at most ${COLLECTION_MAX_PRODUCTS} product ids at a time`);
const ProductsBody = z.object({ products: ProductIdList });
const Paging = { skip: intParam(0, 0, 100_000), take: intParam(20, 1, 100) };
const ListResponse = z.object({ collections: z.array(CollectionSchema), total: z.number().int(), skip: z.number().int(), take: z.number().int() });
const ProductsPage = z.object({ products: z.array(ProductCardSchema), total: z.number().int(), skip: z.number().int(), take: z.number().int() });
const WithProducts = z.object({ collection: CollectionSchema, products: z.array(ProductCardSchema), total: z.number().int() });
const Insertions = z.object({ collections: z.array(CollectionWithProductsSchema) });
const InsertionsQuery = z.object({ skip: intParam(0, 0, 1000), take: intParam(4, 1, 20), target_gender: TargetGender.optional() });
const ProductsChange = z.object({ collection: CollectionSchema, changed: z.number().int() });

export const CollectionCreateBody = z.object({
  title: Title,
  handle: Handle.optional(),
  description: Text(5000),
  image_url: Text(2000),
  target_gender: TargetGender.default("both"),
  featured: z.boolean().default(false),
  /** Collections start as drafts; publish makes them visible. */
  status: z.enum(["draft", "archived"]).default("draft"),
  /** A partner collection belongs to a vendor. */
  partner_id: z.string().trim().min(1).nullable().optional(),
  products: ProductIdList.optional(),
});

export const CollectionUpdateBody = z
  .object({
    title: Title.optional(),
    handle: Handle.optional(),
    description: Text(5000),
    image_url: Text(2000),
    target_gender: TargetGender.optional(),
    featured: z.boolean().optional(),
    partner_id: z.string().trim().min(1).nullable().optional(),
    /** Optimistic check: when given, the update is refused (409) unless the collection is at this version. */
    version: z.number().int().min(1).optional(),
  })
  .refine((b) => Object.entries(b).some(([k, v]) => k !== "version" && v !== undefined), "Send at least one field to update");

export const PartnerCollectionUpdateBody = z
  .object({
    title: Title.optional(),
    description: Text(5000),
    image_url: Text(2000),
    target_gender: TargetGender.optional(),
    version: z.number().int().min(1).optional(),
  })
  .refine((b) => Object.entries(b).some(([k, v]) => k !== "version" && v !== undefined), "Send at least one field to update");

export const SuggestionSchema = z.object({
  title: z.string(),
  /** A free handle for the suggested collection. */
  handle: z.string(),
  target_gender: TargetGender,
  /** The words the ranking used (after dropping stop words and gender words). */
  keywords: z.array(z.string()),
  products: z.array(ProductCardSchema.extend({ score: z.number() })),
  topProducts: z.array(ProductCardSchema.extend({ score: z.number() })),
});

const admin = access.admin("catalog.edit");
const partner = { kind: "role", roles: ["VENDOR", "ADMIN"] } as const;

export const collectionsEndpoints = {
  collectionsCreate: endpoint({
    method: "POST",
    path: "/collections",
    summary: "Create a collection (a draft unless told otherwise; optional initial products)",
    tags: ["Collections"],
    access: admin,
    body: CollectionCreateBody,
    response: CollectionSchema,
    status: 201,
  }),
  collectionsList: endpoint({
    method: "GET",
    path: "/collections",
    summary: "List collections in their sort order (skip/take + total). The public sees active ones; admins may filter by status",
    tags: ["Collections"],
    access: access.public,
    query: z.object({
      ...Paging,
      status: z.enum(["draft", "active", "archived", "all"]).optional(),
      target_gender: TargetGender.optional(),
      featured: z.stringbool().optional(),
      q: z.string().trim().max(100).optional(),
    }),
    response: ListResponse,
  }),
  collectionsFeatured: endpoint({
    method: "GET",
    path: "/collections/featured",
    summary: "Featured active collections in their sort order",
    tags: ["Collections"],
    access: access.public,
    query: z.object({ take: intParam(10, 1, 50), target_gender: TargetGender.optional() }),
    response: z.object({ collections: z.array(CollectionSchema) }),
  }),
  collectionsInsertions: endpoint({
    method: "GET",
    path: "/collections/insertions",
    summary: "Collections to interleave in feeds, each with 4 products",
    tags: ["Collections"],
    access: access.public,
    query: InsertionsQuery,
    response: Insertions,
  }),
  collectionsFeaturedInsertions: endpoint({
    method: "GET",
    path: "/collections/featured-insertions",
    summary: "Featured collections to interleave in feeds, each with 4 products",
    tags: ["Collections"],
    access: access.public,
    query: InsertionsQuery,
    response: Insertions,
  }),
  collectionsByTargetGender: endpoint({
    method: "GET",
    path: "/collections/target_gender/{gender}",
    summary: 'Active collections for a target gender ("both" collections included; "both" lists every gender)',
    tags: ["Collections"],
    access: access.public,
    params: z.object({ gender: TargetGender }),
    query: z.object(Paging),
    response: ListResponse,
  }),
  collectionsByName: endpoint({
    method: "GET",
    path: "/collections/name/{name}",
    summary: "An active collection by its title (case-insensitive)",
    tags: ["Collections"],
    access: access.public,
    params: z.object({ name: z.string().trim().min(1).max(200) }),
    response: CollectionSchema,
  }),
  collectionsGetByHandle: endpoint({
    method: "GET",
    path: "/collections/handle/{handle}",
    summary: "An active collection by handle",
    tags: ["Collections"],
    access: access.public,
    params: z.object({ handle: z.string().trim().min(1).max(200) }),
    response: CollectionSchema,
  }),
  collectionsGetByHandleWithProducts: endpoint({
    method: "GET",
    path: "/collections/handle/{handle}/with-products",
    summary: "An active collection by handle with its first 20 active products (in collection order) and their total",
    tags: ["Collections"],
    access: access.public,
    params: z.object({ handle: z.string().trim().min(1).max(200) }),
    query: z.object({ take: intParam(COLLECTION_WITH_PRODUCTS_TAKE, 1, 100), target_gender: TargetGender.optional() }),
    response: WithProducts,
  }),
  collectionsAdminGetByHandle: endpoint({
    method: "GET",
    path: "/collections/admin/handle/{handle}",
    summary: "A collection of any status by handle, with all its products in order (any product status)",
    tags: ["Collections"],
    access: admin,
    params: z.object({ handle: z.string().trim().min(1).max(200) }),
    response: WithProducts,
  }),
  collectionsGetById: endpoint({
    method: "GET",
    path: "/collections/{id}",
    summary: "A collection (drafts and archived ones only for admins)",
    tags: ["Collections"],
    access: access.public,
    params: IdParams,
    response: CollectionSchema,
  }),
  collectionsAdminUpdate: endpoint({
    method: "PATCH",
    path: "/collections/admin/{id}",
    summary: "Update a collection's details (increments its version; optional optimistic version check)",
    tags: ["Collections"],
    access: admin,
    params: IdParams,
    body: CollectionUpdateBody,
    response: CollectionSchema,
  }),
  collectionsAdminDelete: endpoint({
    method: "DELETE",
    path: "/collections/admin/{id}",
    summary: "Delete a collection (its products stay in the catalogue)",
    tags: ["Collections"],
    access: admin,
    params: IdParams,
    response: Ok,
  }),
  collectionsPublish: endpoint({
    method: "POST",
    path: "/collections/{id}/publish",
    summary: "Publish a collection: status active and published_at (refused, 422, for a collection without products)",
    tags: ["Collections"],
    access: admin,
    params: IdParams,
    response: CollectionSchema,
  }),
  collectionsIncrementView: endpoint({
    method: "POST",
    path: "/collections/{id}/increment-view",
    summary: "Count a view of an active collection (atomic); answers the new count",
    tags: ["Collections"],
    access: access.public,
    params: IdParams,
    response: z.object({ id: z.string(), view_count: z.number().int() }),
  }),
  collectionsProductsPaginated: endpoint({
    method: "GET",
    path: "/collections/{id}/products/paginated",
    summary: 'A collection\'s active products in collection order (skip/take, target gender with "both" included)',
    tags: ["Collections"],
    access: access.public,
    params: IdParams,
    query: z.object({ ...Paging, target_gender: TargetGender.optional() }),
    response: ProductsPage,
  }),
  collectionsProductsSearch: endpoint({
    method: "GET",
    path: "/collections/{id}/products/search",
    summary: "Search a collection's active products (title, type, vendor, tags, description)",
    tags: ["Collections"],
    access: access.public,
    params: IdParams,
    query: z.object({ q: z.string().trim().min(1, "must not be empty").max(200), ...Paging, target_gender: TargetGender.optional() }),
    response: ProductsPage,
  }),
  collectionsAdminAddProducts: endpoint({
    method: "POST",
    path: "/collections/admin/{id}/products",
    summary: "Add products at the end of a collection (idempotent; unknown product ids are refused, listed)",
    tags: ["Collections"],
    access: admin,
    params: IdParams,
    body: ProductsBody,
    response: ProductsChange,
  }),
  collectionsAdminRemoveProducts: endpoint({
    method: "DELETE",
    path: "/collections/admin/{id}/products",
    summary: "Remove products from a collection (idempotent; unknown product ids are refused, listed)",
    tags: ["Collections"],
    access: admin,
    params: IdParams,
    body: ProductsBody,
    response: ProductsChange,
  }),
  collectionsAdminReorderProducts: endpoint({
    method: "PUT",
    path: "/collections/admin/{id}/products/order",
    summary: "Set the order of a collection's products (the full list of its products, in the new order)",
    tags: ["Collections"],
    access: admin,
    params: IdParams,
    body: ProductsBody,
    response: z.object({ collection: CollectionSchema, products: z.array(z.string()) }),
  }),
  collectionsAdminSetVersion: endpoint({
    method: "PATCH",
    path: "/collections/admin/{id}/version",
    summary: "Bump a collection's version (optimistic: send the version you have; 409 when it moved on)",
    tags: ["Collections"],
    access: admin,
    params: IdParams,
    body: z.object({ version: z.number().int().min(1) }),
    response: CollectionSchema,
  }),
  collectionsAdminSetStatus: endpoint({
    method: "PATCH",
    path: "/collections/admin/{id}/status",
    summary: "Set a collection's status (draft, active, archived); active needs products, like publish",
    tags: ["Collections"],
    access: admin,
    params: IdParams,
    body: z.object({ status: CollectionStatus }),
    response: CollectionSchema,
  }),
  collectionsAdminSetFeatured: endpoint({
    method: "PATCH",
    path: "/collections/admin/{id}/featured",
    summary: "Feature or unfeature a collection",
    tags: ["Collections"],
    access: admin,
    params: IdParams,
    body: z.object({ featured: z.boolean() }),
    response: CollectionSchema,
  }),
  collectionsAdminOrder: endpoint({
    method: "PUT",
    path: "/collections/admin/order",
    summary: "Set the order of collections (ids in the new order; collections not listed keep their relative order after them)",
    tags: ["Collections"],
    access: admin,
    body: z.object({
      ids: z
        .array(z.string().trim().min(1, "must be a non-empty string"), {
          error: (i) => (i.input === undefined ? undefined : "must be an array of collection ids"),
        })
        .min(1, "must list at least one collection")
        .max(5000),
    }),
    response: Ok.extend({ ids: z.array(z.string()) }),
  }),
  collectionsGenerateSuggestions: endpoint({
    method: "POST",
    path: "/collections/generate-suggestions",
    summary:
      "Suggest collections for a prompt: catalogue products ranked by PostgreSQL text matching (first version; the discovery issue improves the ranking)",
    tags: ["Collections"],
    access: admin,
    body: z.object({
      prompt: z.string().trim().min(2, "write at least 2 characters").max(500),
      productCount: z.number().int().min(1).max(100).default(COLLECTION_SUGGESTION_PRODUCTS),
      topKProducts: z.number().int().min(1).max(50).default(COLLECTION_SUGGESTION_TOP_K),
    }),
    response: z.object({ suggestions: z.array(SuggestionSchema) }),
  }),
  collectionsPartnerList: endpoint({
    method: "GET",
    path: "/collections/partner/{partnerId}/collections",
    summary: "A partner's (vendor's) collections, any status (a vendor sees only their own)",
    tags: ["Collections"],
    access: partner,
    params: z.object({ partnerId: z.string().trim().min(1) }),
    query: z.object({ ...Paging, status: CollectionStatus.optional() }),
    response: ListResponse,
  }),
  collectionsPartnerUpdate: endpoint({
    method: "PATCH",
    path: "/collections/partner/{partnerId}/collections/{id}",
    summary: "Update a partner collection's title, description, image or target gender",
    tags: ["Collections"],
    access: partner,
    params: z.object({ partnerId: z.string().trim().min(1), id: z.string().trim().min(1) }),
    body: PartnerCollectionUpdateBody,
    response: CollectionSchema,
  }),
  collectionsPartnerDelete: endpoint({
    method: "DELETE",
    path: "/collections/partner/{partnerId}/collections/{id}",
    summary: "Delete a partner collection",
    tags: ["Collections"],
    access: partner,
    params: z.object({ partnerId: z.string().trim().min(1), id: z.string().trim().min(1) }),
    response: Ok,
  }),
};
