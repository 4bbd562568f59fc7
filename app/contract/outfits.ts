/**
 * Curated outfits ("complete the look", issue 19; SPEC §7 lists "outfits" without payloads, so the
 * shapes are ours). A look is an ordered set of products: built by an admin (`curated`) or accepted
 * from an engine proposal (`proposed`). Shoppers read published looks only; a draft or archived look
 * answers 404 to them, the same as one that does not exist. Shoppers' generated looks on a clone
 * (`generated`) live in the same table but belong to ./outfit-generations.ts, never to these calls.
 *
 * Admin calls need `catalog.edit`, the permission of collections and styles.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, Ok, TargetGender, intParam } from "./common";
import { ProductCardSchema } from "./products";
import { toProductGid } from "../lib/gid";

/** A look needs at least two products to be published (one product is not a look). */
export const OUTFIT_MIN_PRODUCTS_TO_PUBLISH = 2;
export const OUTFIT_MAX_PRODUCTS = 12;
export const OUTFIT_NAME_MAX = 120;
export const OUTFIT_DESCRIPTION_MAX = 2000;

export const OutfitStatusSchema = z.enum(["draft", "published", "archived"]);
export type OutfitStatus = z.output<typeof OutfitStatusSchema>;
export const CuratedOutfitSourceSchema = z.enum(["curated", "proposed"]);

/**
 * Allowed status changes. Publishing an archived look goes through draft first, so an admin looks
 * at an old look again before it reaches shoppers.
 */
export const OUTFIT_STATUS_TRANSITIONS: Record<OutfitStatus, readonly OutfitStatus[]> = {
  draft: ["published", "archived"],
  published: ["draft", "archived"],
  archived: ["draft"],
};

export const OutfitSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The cover image; the first product's image stands in for it when null (clients choose). */
  image_url: z.string().nullable(),
  source: CuratedOutfitSourceSchema,
  status: OutfitStatusSchema,
  target_gender: TargetGender,
  sort_order: z.number().int(),
  /** In the look's order. */
  product_ids: z.array(z.string()),
  published_at: IsoDate.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Outfit = z.output<typeof OutfitSchema>;

/** A look with its products in order; shoppers get only the products shown to them. */
export const OutfitDetailSchema = OutfitSchema.extend({ products: z.array(ProductCardSchema) });
export type OutfitDetail = z.output<typeof OutfitDetailSchema>;

/** A look the recommendation engine proposes: not stored until an admin accepts or rejects it. */
export const OutfitProposalSchema = z.object({
  /** The sorted product ids: the same set is the same proposal. */
  key: z.string(),
  name: z.string(),
  target_gender: TargetGender,
  product_ids: z.array(z.string()),
  products: z.array(ProductCardSchema),
  score: z.number(),
  /** Why these go together: the garment group of each product, colour harmony, co-purchase strength. */
  attributes: z.object({
    groups: z.array(z.string()),
    harmony: z.enum(["neutral", "monochrome", "analogous", "complementary", "mixed"]),
    co_purchase: z.number(),
  }),
});
export type OutfitProposal = z.output<typeof OutfitProposalSchema>;

const OutfitIdParams = z.object({ id: z.string().trim().min(1).max(100) });
const ProductId = z.string().trim().min(1, "must not be empty").max(200).transform(toProductGid);
const ProductIds = z
  .array(ProductId)
  .max(OUTFIT_MAX_PRODUCTS, `at most ${OUTFIT_MAX_PRODUCTS} products in a look`)
  .refine((ids) => new Set(ids).size === ids.length, "a product appears twice");
const ImageUrl = z.string().trim().max(2000).refine((v) => /^(https?:\/\/|\/)/.test(v), "image_url must be an http(s) URL or a path");

const OutfitWrite = z.object({
  name: z.string().trim().min(1, "must not be empty").max(OUTFIT_NAME_MAX),
  description: z.string().trim().max(OUTFIT_DESCRIPTION_MAX).nullable().optional(),
  image_url: ImageUrl.nullable().optional(),
  target_gender: TargetGender.optional(),
  sort_order: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  product_ids: ProductIds.optional(),
});

const ProposalDecision = z.object({ product_ids: ProductIds.refine((ids) => ids.length >= OUTFIT_MIN_PRODUCTS_TO_PUBLISH, "a proposal has at least two products") });

const Page = z.object({ outfits: z.array(OutfitDetailSchema), total: z.number().int(), skip: z.number().int(), take: z.number().int() });

/** The most looks one shopper's collection keeps. */
export const USER_COLLECTION_OUTFITS_MAX = 200;
const CollectionIdParams = z.object({ id: z.string().trim().min(1).max(100) });

export const outfitsEndpoints = {
  outfitsList: endpoint({
    method: "GET",
    path: "/outfits",
    summary: "Published looks (with a gender filter, or those containing a product), in the admins' order",
    tags: ["Outfits"],
    access: access.public,
    query: z.object({
      skip: intParam(0, 0, 1_000_000),
      take: intParam(20, 1, 50),
      target_gender: TargetGender.optional(),
      product_id: ProductId.optional(),
    }),
    response: Page,
  }),
  outfitsCompleteTheLook: endpoint({
    method: "GET",
    path: "/outfits/complete-the-look",
    summary: "Looks for a product page: published looks containing the product, else one proposed by the engine",
    tags: ["Outfits"],
    access: access.public,
    query: z.object({ product_id: ProductId, take: intParam(3, 1, 10) }),
    response: z.object({ outfits: z.array(OutfitDetailSchema), proposal: OutfitProposalSchema.nullable() }),
  }),
  outfitsAdminList: endpoint({
    method: "GET",
    path: "/outfits/admin",
    summary: "Every curated or accepted look, any status (admin list)",
    tags: ["Outfits"],
    access: access.admin("catalog.edit"),
    query: z.object({
      skip: intParam(0, 0, 1_000_000),
      take: intParam(20, 1, 100),
      status: OutfitStatusSchema.optional(),
      target_gender: TargetGender.optional(),
      q: z.string().trim().max(120).optional(),
    }),
    response: Page,
  }),
  outfitsProposals: endpoint({
    method: "GET",
    path: "/outfits/proposals",
    summary: "Looks proposed by the recommendation engine that no admin has decided on yet",
    tags: ["Outfits"],
    access: access.admin("catalog.edit"),
    query: z.object({ take: intParam(10, 1, 30), target_gender: TargetGender.optional() }),
    response: z.object({ proposals: z.array(OutfitProposalSchema) }),
  }),
  outfitsProposalsAccept: endpoint({
    method: "POST",
    path: "/outfits/proposals/accept",
    summary: "Accept a proposal: it becomes a draft look (or published with publish: true), kept as approved training data",
    tags: ["Outfits"],
    access: access.admin("catalog.edit"),
    body: ProposalDecision.extend({
      name: z.string().trim().min(1).max(OUTFIT_NAME_MAX).optional(),
      target_gender: TargetGender.optional(),
      publish: z.boolean().default(false),
    }),
    response: OutfitDetailSchema,
    status: 201,
  }),
  outfitsProposalsReject: endpoint({
    method: "POST",
    path: "/outfits/proposals/reject",
    summary: "Reject a proposal: kept as training data (not approved) and not proposed again",
    tags: ["Outfits"],
    access: access.admin("catalog.edit"),
    body: ProposalDecision.extend({ reason: z.string().trim().max(500).optional() }),
    response: Ok,
  }),
  outfitsGetById: endpoint({
    method: "GET",
    path: "/outfits/{id}",
    summary: "A published look with its products",
    tags: ["Outfits"],
    access: access.public,
    params: OutfitIdParams,
    response: OutfitDetailSchema,
  }),
  outfitsAdminGet: endpoint({
    method: "GET",
    path: "/outfits/admin/{id}",
    summary: "A look in any status, with all its products (hidden ones too)",
    tags: ["Outfits"],
    access: access.admin("catalog.edit"),
    params: OutfitIdParams,
    response: OutfitDetailSchema,
  }),
  outfitsCreate: endpoint({
    method: "POST",
    path: "/outfits",
    summary: "Create a look (a draft)",
    tags: ["Outfits"],
    access: access.admin("catalog.edit"),
    body: OutfitWrite,
    response: OutfitDetailSchema,
    status: 201,
  }),
  outfitsUpdate: endpoint({
    method: "PATCH",
    path: "/outfits/{id}",
    summary: "Edit a look: name, description, cover, gender, order, products (their order is the look's)",
    tags: ["Outfits"],
    access: access.admin("catalog.edit"),
    params: OutfitIdParams,
    body: OutfitWrite.partial(),
    response: OutfitDetailSchema,
  }),
  outfitsSetStatus: endpoint({
    method: "PUT",
    path: "/outfits/{id}/status",
    summary: "Publish, unpublish (back to draft) or archive a look",
    tags: ["Outfits"],
    access: access.admin("catalog.edit"),
    params: OutfitIdParams,
    body: z.object({ status: OutfitStatusSchema }),
    response: OutfitDetailSchema,
  }),
  outfitsDelete: endpoint({
    method: "DELETE",
    path: "/outfits/{id}",
    summary: "Delete a look (its products stay in the catalogue)",
    tags: ["Outfits"],
    access: access.admin("catalog.edit"),
    params: OutfitIdParams,
    response: Ok,
  }),
  // A shopper saves a published look into one of their collections (beside its products). Same
  // access as the collection's products: the caller's own collections only, another's answers 404.
  userCollectionsOutfits: endpoint({
    method: "GET",
    path: "/user-collections/{id}/outfits",
    summary: "The looks saved in a collection, newest first (ones no longer published are left out)",
    tags: ["User collections", "Outfits"],
    access: access.user,
    params: CollectionIdParams,
    response: z.object({ data: z.object({ items: z.array(OutfitDetailSchema) }) }),
  }),
  userCollectionsAddOutfit: endpoint({
    method: "POST",
    path: "/user-collections/{id}/outfits",
    summary: "Save a published look into a collection (saving it twice changes nothing)",
    tags: ["User collections", "Outfits"],
    access: access.user,
    params: CollectionIdParams,
    body: z.object({ outfit_id: z.string().trim().min(1, "outfit_id is required").max(100) }),
    response: z.object({ data: z.object({ added: z.boolean() }) }),
  }),
  userCollectionsRemoveOutfit: endpoint({
    method: "DELETE",
    path: "/user-collections/{id}/outfits/{outfitId}",
    summary: "Take a look out of a collection",
    tags: ["User collections", "Outfits"],
    access: access.user,
    params: CollectionIdParams.extend({ outfitId: z.string().trim().min(1).max(100) }),
    response: z.object({ data: z.object({ removed: z.boolean() }) }),
  }),
};
