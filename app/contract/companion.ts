/**
 * Product companion (SPEC §3, §7): the app's own record beside a store product — Taobao origin,
 * review status, material sections, presale variants, scheduled publishing, try-on flag.
 * Paths are under /shopify/companion. `{id}` is the product id (GID, URL-encoded, or the bare
 * numeric id) or the companion's own id.
 * SPEC §8 fallbacks are answered as values: unknown companion → 200 null, check-imported of an
 * unknown Taobao id → false, similar products of an unknown product → empty results, bulk [] → [].
 */
import { z } from "zod";
import { ProductMaterialSchema } from "./materials";
import { access, endpoint } from "./endpoint";
import { IsoDate, TargetGender, intParam } from "./common";
import { Messages } from "./messages";
import { ImageSchema, ProductCardSchema, ProductDetailSchema, ProductIdParams } from "./products";

export const CompanionStatusSchema = z.enum(["draft", "pending_review", "active", "archived"]);
export type CompanionStatus = z.infer<typeof CompanionStatusSchema>;

/** Allowed status changes (anything else answers 409 naming both states). */
export const COMPANION_TRANSITIONS: Record<CompanionStatus, readonly CompanionStatus[]> = {
  draft: ["pending_review"],
  pending_review: ["active"],
  active: ["archived", "draft"],
  archived: ["draft"],
};

export const MaterialSectionSchema = z.object({
  title: z.string().trim().min(1, "A material section needs a title").max(100),
  content: z.string().trim().min(1, "A material section needs content").max(2000),
});
export type MaterialSection = z.output<typeof MaterialSectionSchema>;

const CompanionProductSummary = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  vendor: z.string(),
  status: z.enum(["active", "draft", "archived"]),
  availableForSale: z.boolean(),
  featuredImage: ImageSchema.nullable(),
  publishedAt: IsoDate.nullable(),
});

/** What admins and the product's vendor see. */
export const CompanionSchema = z.object({
  id: z.string(),
  shopify_product_id: z.string(),
  taobao_id: z.string().nullable(),
  taobao_title: z.string().nullable(),
  taobao_url: z.string().nullable(),
  status: CompanionStatusSchema,
  status_reason: z.string().nullable(),
  material_sections: z.array(MaterialSectionSchema),
  presale_variant_ids: z.array(z.string()),
  scheduled_publish_date: IsoDate.nullable(),
  tryon_active: z.boolean(),
  verified_at: IsoDate.nullable(),
  flat_image_url: z.string().nullable(),
  mask_image_url: z.string().nullable(),
  vector_synced_at: IsoDate.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
  product: CompanionProductSummary,
});
export type Companion = z.output<typeof CompanionSchema>;

/** What shoppers see: no Taobao origin, no review notes. */
export const PublicCompanionSchema = z.object({
  id: z.string(),
  shopify_product_id: z.string(),
  status: CompanionStatusSchema,
  material_sections: z.array(MaterialSectionSchema),
  presale_variant_ids: z.array(z.string()),
  scheduled_publish_date: IsoDate.nullable(),
  tryon_active: z.boolean(),
  flat_image_url: z.string().nullable(),
  product: CompanionProductSummary,
});

const ProductIdBody = z.string({ error: Messages.NO_PRODUCT_ID }).trim().min(1, Messages.NO_PRODUCT_ID);
const AnyIdParams = z.object({ id: z.string().trim().min(1) });
const FutureOrNullDate = z.union([z.iso.datetime({ offset: true }), z.null()]);
const VariantMediaPairs = z.object({
  pairs: z.array(z.object({ variantId: z.string().trim().min(1), mediaId: z.string().trim().min(1) })).min(1, "pairs must not be empty").max(250),
});

const ScheduleResult = z.object({
  product_id: z.string(),
  scheduled_publish_date: IsoDate.nullable(),
  publishedAt: IsoDate.nullable(),
});

export const companionEndpoints = {
  companionCreate: endpoint({
    method: "POST",
    path: "/shopify/companion",
    summary: "Create the companion of an existing product (404 when the product is unknown, 409 when it has one)",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    body: z.object({ product_id: ProductIdBody, taobao_id: z.string().trim().min(1).optional(), taobao_title: z.string().trim().max(500).optional(), taobao_url: z.url().optional() }),
    response: CompanionSchema,
    status: 201,
  }),
  companionMissingPublicId: endpoint({
    method: "GET",
    path: "/shopify/companion/public",
    summary: "The public companion getter called without an id: 400 \"No product ID provided\"",
    tags: ["Product companion"],
    access: access.public,
    response: z.never(),
  }),
  companionAnalyzeImageUrl: endpoint({
    method: "POST",
    path: "/shopify/companion/analyze-image-url",
    summary:
      "Analyse an uploaded image: dominant colours (hex, name, share), size and aspect ratio, and a garment type from the catalogue's product types when the file name or alt text names one. In local mode only uploaded images (/uploads/... or a storage key) are read (422 otherwise).",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    body: z.object({ url: z.string().trim().min(1, "url is required").max(2000), alt: z.string().trim().max(500).optional() }),
    response: z.object({
      url: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      aspectRatio: z.number(),
      orientation: z.enum(["portrait", "landscape", "square"]),
      dominantColors: z.array(z.object({ hex: z.string(), name: z.string(), share: z.number() })),
      garmentType: z.string().nullable(),
      garmentTypeSource: z.enum(["filename", "alt"]).nullable(),
    }),
  }),
  companionGet: endpoint({
    method: "GET",
    path: "/shopify/companion/{id}",
    summary: "A companion by product id or companion id; null when there is none",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    response: CompanionSchema.nullable(),
  }),
  companionGetPublic: endpoint({
    method: "GET",
    path: "/shopify/companion/public/{id}",
    summary: "The public part of a visible product's companion; null when there is none; 400 \"No product ID provided\" without an id",
    tags: ["Product companion"],
    access: access.public,
    params: ProductIdParams,
    response: PublicCompanionSchema.nullable(),
  }),
  companionGetForVendor: endpoint({
    method: "GET",
    path: "/shopify/companion/vendor/{id}",
    summary: "A companion for its vendor: a VENDOR gets null for products of other vendors (admins see all)",
    tags: ["Product companion"],
    access: { kind: "role", roles: ["VENDOR", "ADMIN"] } as const,
    params: ProductIdParams,
    response: CompanionSchema.nullable(),
  }),
  companionGetByHandle: endpoint({
    method: "GET",
    path: "/shopify/companion/nla/{handle}",
    summary: "The public companion by product handle, also for products no longer available (archived or draft), with the product's status; null when unknown",
    tags: ["Product companion"],
    access: access.public,
    params: z.object({ handle: z.string().trim().min(1).max(255) }),
    response: PublicCompanionSchema.nullable(),
  }),
  companionGetByTaobaoId: endpoint({
    method: "GET",
    path: "/shopify/companion/taobao/{id}",
    summary: "The companion of the product imported from a Taobao item id; null when none",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    response: CompanionSchema.nullable(),
  }),
  companionVendorBulk: endpoint({
    method: "POST",
    path: "/shopify/companion/vendor/bulk",
    summary: "Companions of several products (`ids`, at most 250); an empty list answers []; a VENDOR gets only their own",
    tags: ["Product companion"],
    access: { kind: "role", roles: ["VENDOR", "ADMIN"] } as const,
    body: z.object({ ids: z.array(z.string().trim().min(1)).max(250) }),
    response: z.array(CompanionSchema),
  }),
  companionVerify: endpoint({
    method: "POST",
    path: "/shopify/companion/verify/{id}",
    summary: "Mark a companion verified: sets verified_at and makes it (and its product) active",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    response: CompanionSchema,
  }),
  companionCheckImported: endpoint({
    method: "GET",
    path: "/shopify/companion/check-imported/{id}",
    summary: "Whether a Taobao item id was imported already (true/false)",
    tags: ["Product companion"],
    access: access.admin("catalog.import"),
    params: AnyIdParams,
    response: z.boolean(),
  }),
  companionUpdate: endpoint({
    method: "PUT",
    path: "/shopify/companion/{id}",
    summary: "Update a companion's own fields (Taobao title and URL, material sections, try-on flag, flat and mask images)",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    body: z
      .object({
        taobao_title: z.string().trim().max(500).nullable(),
        taobao_url: z.url().nullable(),
        material_sections: z.array(MaterialSectionSchema).max(20),
        tryon_active: z.boolean(),
        flat_image_url: z.string().trim().max(2000).nullable(),
        mask_image_url: z.string().trim().max(2000).nullable(),
      })
      .partial(),
    response: CompanionSchema,
  }),
  companionUpdateStatus: endpoint({
    method: "POST",
    path: "/shopify/companion/update-status/{id}",
    summary:
      "Change the status with an optional reason. Allowed: draft→pending_review→active→archived, archived→draft, active→draft; other changes answer 409. The product's store status follows (active → active, archived → archived, otherwise draft).",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    body: z.object({ status: CompanionStatusSchema, reason: z.string().trim().max(1000).optional() }),
    response: CompanionSchema,
  }),
  companionUpdateOptionValue: endpoint({
    method: "PATCH",
    path: "/shopify/companion/{id}/option-value",
    summary: "Rename an option value of the product in the store (e.g. Colour \"Navy\" → \"Midnight\"); the variants follow",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    body: z.object({ optionName: z.string().trim().min(1), from: z.string().trim().min(1), to: z.string().trim().min(1).max(255) }),
    response: z.object({ options: z.array(z.object({ id: z.string(), name: z.string(), values: z.array(z.string()) })), variantCount: z.number().int() }),
  }),
  companionDeleteOptionValue: endpoint({
    method: "DELETE",
    path: "/shopify/companion/{id}/option-value",
    summary: "Delete an option value and its variants from the product in the store (not the option's last value)",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    body: z.object({ optionName: z.string().trim().min(1), value: z.string().trim().min(1) }),
    response: z.object({ options: z.array(z.object({ id: z.string(), name: z.string(), values: z.array(z.string()) })), variantCount: z.number().int() }),
  }),
  companionScheduledPublish: endpoint({
    method: "PATCH",
    path: "/shopify/companion/products/{id}/scheduled-publish",
    summary: "Schedule the product's publication at a future date (store publishing with a publish date); null clears a schedule (a product not yet published is unpublished)",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: ProductIdParams,
    body: z.object({ scheduled_publish_date: FutureOrNullDate }),
    response: ScheduleResult,
  }),
  companionPublishNow: endpoint({
    method: "POST",
    path: "/shopify/companion/products/{id}/publish-now",
    summary: "Publish the product at once (its own schedule is done); 409 while a drop holds it (docs/drops.md)",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: ProductIdParams,
    response: ScheduleResult,
  }),
  companionScheduledPublishBulk: endpoint({
    method: "POST",
    path: "/shopify/companion/products/scheduled-publish/bulk",
    summary: "Schedule several products (at most 100); each item answers on its own (ok or error)",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    body: z.object({
      items: z.array(z.object({ product_id: ProductIdBody, scheduled_publish_date: FutureOrNullDate })).max(100),
    }),
    response: z.object({
      results: z.array(
        z.object({
          product_id: z.string(),
          ok: z.boolean(),
          scheduled_publish_date: IsoDate.nullable(),
          error: z.string().optional(),
        }),
      ),
    }),
  }),
  companionPresaleVariants: endpoint({
    method: "PATCH",
    path: "/shopify/companion/presale-variants/{id}",
    summary: "Set which variants are sold on presale (every id must be a variant of the product)",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    body: z.object({ variant_ids: z.array(z.string().trim().min(1)).max(250) }),
    response: CompanionSchema,
  }),
  companionSyncInventory: endpoint({
    method: "POST",
    path: "/shopify/companion/sync-inventory/{id}",
    summary: "Re-read one product's inventory levels from the store into the read model",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    response: z.object({
      productId: z.string(),
      totalInventory: z.number().int(),
      availableForSale: z.boolean(),
      variants: z.array(z.object({ id: z.string(), available: z.number().int(), availableForSale: z.boolean() })),
    }),
  }),
  companionSimilar: endpoint({
    method: "GET",
    path: "/shopify/companion/similar/{id}",
    summary:
      "Products similar to a product by attributes (product type, gender, price, colours in Lab, tags; plus the stored attribute vectors when both have one). completeProductData=true answers full products. An unknown product answers empty results.",
    tags: ["Product companion"],
    access: access.public,
    params: AnyIdParams,
    query: z.object({
      target_gender: TargetGender.optional(),
      page: intParam(1, 1, 1000),
      limit: intParam(20, 1, 50),
      completeProductData: z.stringbool().default(false),
    }),
    response: z.object({
      results: z.array(z.union([ProductDetailSchema, ProductCardSchema])),
      scores: z.array(z.number()),
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      hasNextPage: z.boolean(),
    }),
  }),
  companionSyncVector: endpoint({
    method: "POST",
    path: "/shopify/companion/sync-pinecone/{id}",
    summary:
      "Re-index the product now through the products.index job's code: its vectors (ProductEmbedding kinds \"attributes\" — colour Lab, product-type one-hot, gender, price bucket —, \"image\" — the featured image, and \"text\") are computed, stored and upserted into the vector index (VECTOR_INDEX: pgvector, Pinecone or exact); vector_synced_at is set. A hidden product keeps its attribute vector but leaves the index. Answers what was indexed, what was skipped and why.",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    response: z.object({
      productId: z.string(),
      kind: z.literal("attributes"),
      model: z.string(),
      dimensions: z.number().int(),
      vector_synced_at: IsoDate,
      status: z.enum(["indexed", "hidden"]),
      index: z.string(),
      indexed: z.array(z.object({ kind: z.enum(["image", "text", "attributes"]), model: z.string(), dimensions: z.number().int() })),
      skipped: z.array(z.object({ kind: z.enum(["image", "text", "attributes"]), reason: z.string() })),
      removedFrom: z.array(z.enum(["image", "text", "attributes"])),
      ms: z.number(),
    }),
  }),
  companionReanalyzeMaterials: endpoint({
    method: "POST",
    path: "/shopify/companion/reanalyze-materials/{id}",
    summary:
      "Read fibres and percentages from the product description and Taobao title and store them as the \"Composition\" material section (other sections are kept), and as the product's material categories (the tree of /materials; used by the search's material filter)",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    response: z.object({
      material_sections: z.array(MaterialSectionSchema),
      fibres: z.array(z.object({ fibre: z.string(), percent: z.number().nullable() })),
      found: z.boolean(),
      /** The product's material categories after the call (unchanged when nothing was found). */
      materials: z.array(ProductMaterialSchema),
    }),
  }),
  companionApplyMaterialSections: endpoint({
    method: "POST",
    path: "/shopify/companion/apply-material-sections/{id}",
    summary:
      "Store material sections and write them into the product description in the store (replacing a block written before); the \"Composition\" section's text (else every section's) is mapped onto the material categories",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    body: z.object({ material_sections: z.array(MaterialSectionSchema).max(20) }),
    response: z.object({ material_sections: z.array(MaterialSectionSchema), descriptionHtml: z.string(), materials: z.array(ProductMaterialSchema) }),
  }),
  companionVariantMediaUpdate: endpoint({
    method: "POST",
    path: "/shopify/companion/variant-media/update/{id}",
    summary: "Attach product images to variants (`pairs` of variantId and mediaId), as POST /products/{id}/variant-media",
    tags: ["Product companion"],
    access: access.admin("catalog.edit"),
    params: AnyIdParams,
    body: VariantMediaPairs,
    response: z.object({ ok: z.literal(true), variants: z.array(z.object({ id: z.string(), image: ImageSchema.nullable() })) }),
  }),
};

