import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, Money, TargetGender, intParam } from "./common";
import { Messages } from "./messages";

export const ImageSchema = z.object({ url: z.string(), altText: z.string().nullable() });

/**
 * The variant of a result that matches what was asked (a searched colour such as "black jeans", a
 * colour facet, the colour of a photo): the card shows its image and links to it selected.
 */
export const MatchedVariantSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** The variant's colour option value, as the catalogue spells it ("Black", "Washed Black"). */
  colour: z.string(),
  colorHex: z.string().nullable(),
  /** The variant's image; null when it has none (the card keeps the product's image). */
  image: ImageSchema.nullable(),
  availableForSale: z.boolean(),
});
export type MatchedVariant = z.output<typeof MatchedVariantSchema>;

/** A product as listed in feeds: the Storefront shape, without variants. */
export const ProductCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  vendor: z.string(),
  productType: z.string(),
  availableForSale: z.boolean(),
  featuredImage: ImageSchema.nullable(),
  priceRange: z.object({ minVariantPrice: Money, maxVariantPrice: Money }),
  target_gender: TargetGender,
  /** The variants' colour-hex metafield values, for swatches. */
  colorHexes: z.array(z.string()),
  storeId: z.string().nullable(),
  /** Search, photo search and assistant results: the variant matching the asked colour, when one does. */
  matchedVariant: MatchedVariantSchema.optional(),
});
export type ProductCard = z.output<typeof ProductCardSchema>;

/** A product path id: a GID (URL-encoded in the path) or the bare numeric id. */
export const ProductIdParams = z.object({
  id: z
    .string()
    .trim()
    .refine((v) => v !== "" && v !== "undefined" && v !== "null", Messages.NO_PRODUCT_ID),
});

export const SelectedOptionSchema = z.object({ name: z.string(), value: z.string() });

export const ProductVariantSchema = z.object({
  id: z.string(),
  title: z.string(),
  sku: z.string().nullable(),
  availableForSale: z.boolean(),
  quantityAvailable: z.number().int(),
  image: ImageSchema.nullable(),
  price: Money,
  compareAtPrice: Money.nullable(),
  selectedOptions: z.array(SelectedOptionSchema),
  /** The variant's colour-hex metafield. */
  colorHex: z.string().nullable(),
  product: z.object({ id: z.string(), handle: z.string(), title: z.string() }),
});

export const ProductImageSchema = ImageSchema.extend({ id: z.string(), width: z.number().int().nullable(), height: z.number().int().nullable() });

/** A product in the Storefront shape (SPEC §3): options, images (≤ 50), variants (≤ 250). */
export const ProductDetailSchema = ProductCardSchema.extend({
  description: z.string(),
  descriptionHtml: z.string(),
  tags: z.array(z.string()),
  status: z.enum(["active", "draft", "archived"]),
  publishedAt: IsoDate.nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  totalInventory: z.number().int(),
  options: z.array(z.object({ id: z.string(), name: z.string(), values: z.array(z.string()) })),
  images: z.array(ProductImageSchema),
  variants: z.array(ProductVariantSchema),
});
export type ProductDetail = z.output<typeof ProductDetailSchema>;

export const VariantMinimalSchema = z.object({
  id: z.string(),
  title: z.string(),
  price: Money,
  availableForSale: z.boolean(),
  productId: z.string(),
  productTitle: z.string(),
  image: ImageSchema.nullable(),
});

/** `ids=a,b` or `ids=a&ids=b` (or `ids[]=`): a list of non-empty ids. */
const IdList = (max: number) =>
  z.preprocess(
    (v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(",")).map((x) => x.trim()).filter(Boolean)),
    z.array(z.string()).max(max, `At most ${max} ids at a time`),
  );

const JobAccepted = z.object({ jobId: z.string() });

export const ProductSortKey = z.enum(["CREATED_AT", "PRICE", "TITLE", "RELEVANCE", "BEST_SELLING"]);

export const productsEndpoints = {
  listProducts: endpoint({
    method: "GET",
    path: "/products",
    summary: "List products (cursor pagination)",
    tags: ["Products"],
    access: access.public,
    query: z.object({
      query: z.string().trim().max(200).optional(),
      limit: intParam(20, 1, 100),
      cursor: z.string().optional(),
      sortKey: ProductSortKey.default("CREATED_AT"),
      reverse: z.stringbool().default(false),
      target_gender: TargetGender.optional(),
    }),
    response: z.object({
      products: z.array(ProductCardSchema),
      pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
    }),
  }),
  productsGetById: endpoint({
    method: "GET",
    path: "/products/{id}",
    summary: "A product in the Storefront shape (options, images ≤ 50, variants ≤ 250, colour hexes, target_gender); 404 \"Product not found\". Admins with catalog.edit also see drafts and scheduled products.",
    tags: ["Products"],
    access: access.public,
    params: ProductIdParams,
    response: ProductDetailSchema,
  }),
  productsVariantsMinimal: endpoint({
    method: "GET",
    path: "/products/variants/minimal",
    summary: "Minimal variants by ids (`ids=a,b` or repeated `ids`), in the order asked; unknown ids are left out",
    tags: ["Products"],
    access: access.public,
    query: z.object({ ids: IdList(250) }),
    response: z.array(VariantMinimalSchema),
  }),
  productsSearch: endpoint({
    method: "GET",
    path: "/products/search",
    summary: "Text search over visible products: trigram similarity on the title plus matches on type, vendor and tags, best first",
    tags: ["Products"],
    access: access.public,
    query: z.object({
      q: z.string().trim().min(1, "must not be empty").max(200),
      limit: intParam(20, 1, 100),
      target_gender: TargetGender.optional(),
    }),
    response: z.object({ query: z.string(), products: z.array(ProductCardSchema) }),
  }),
  productsByTaobaoId: endpoint({
    method: "GET",
    path: "/products/taobao-id/{id}",
    summary: "The product imported from a Taobao item id (through its companion), or null when none was",
    tags: ["Products"],
    access: access.public,
    params: z.object({ id: z.string().trim().min(1) }),
    response: ProductDetailSchema.nullable(),
  }),
  productsVendors: endpoint({
    method: "GET",
    path: "/products/vendors",
    summary: "Vendor names of the visible catalogue with their product counts, by name",
    tags: ["Products"],
    access: access.public,
    response: z.object({ vendors: z.array(z.object({ name: z.string(), productCount: z.number().int() })) }),
  }),
  productsDelete: endpoint({
    method: "DELETE",
    path: "/products/{id}",
    summary: "Delete a product from the store (commerce port), then from the read model; \"Failed to delete product\" when the store refuses",
    tags: ["Products admin"],
    access: access.admin("catalog.edit"),
    params: ProductIdParams,
    response: z.object({ ok: z.literal(true), id: z.string() }),
  }),
  productsUpdateAllInventories: endpoint({
    method: "POST",
    path: "/products/update-all-inventories",
    summary: "Re-read every product's inventory levels from the store into the read model, as a job (202 {jobId}; progress at GET /products/inventory-jobs/{id})",
    tags: ["Products admin"],
    access: access.admin("catalog.edit"),
    response: JobAccepted,
    status: 202,
  }),
  productsUpdateOutOfStockInventories: endpoint({
    method: "POST",
    path: "/products/update-out-of-stock-inventories",
    summary: "Same as update-all-inventories, for products out of stock in the store or in the read model (202 {jobId})",
    tags: ["Products admin"],
    access: access.admin("catalog.edit"),
    response: JobAccepted,
    status: 202,
  }),
  productsInventoryJob: endpoint({
    method: "GET",
    path: "/products/inventory-jobs/{id}",
    summary: "Status and progress (0–100) of an inventory update job",
    tags: ["Products admin"],
    access: access.admin("catalog.edit"),
    params: z.object({ id: z.string().min(1) }),
    response: z.object({
      id: z.string(),
      status: z.enum(["queued", "running", "completed", "failed", "cancelled"]),
      progress: z.number().int(),
      result: z.object({ products: z.number().int(), variants: z.number().int(), changed: z.number().int() }).nullable(),
      error: z.string().nullable(),
      createdAt: IsoDate,
      completedAt: IsoDate.nullable(),
    }),
  }),
  productsSetMediaOrder: endpoint({
    method: "PUT",
    path: "/products/{id}/media-order",
    summary: "Set the order of a product's images: `mediaIds` lists every image id once; the first becomes the featured image",
    tags: ["Products admin"],
    access: access.admin("catalog.edit"),
    params: ProductIdParams,
    body: z.object({ mediaIds: z.array(z.string().trim().min(1)).min(1, "mediaIds must list the product's images").max(250) }),
    response: z.object({ ok: z.literal(true), images: z.array(ProductImageSchema) }),
  }),
  productsVariantMedia: endpoint({
    method: "POST",
    path: "/products/{id}/variant-media",
    summary: "Attach images of the product to its variants (`pairs` of variantId and mediaId)",
    tags: ["Products admin"],
    access: access.admin("catalog.edit"),
    params: ProductIdParams,
    body: z.object({ pairs: z.array(z.object({ variantId: z.string().trim().min(1), mediaId: z.string().trim().min(1) })).min(1).max(250) }),
    response: z.object({ ok: z.literal(true), variants: z.array(z.object({ id: z.string(), image: ImageSchema.nullable() })) }),
  }),
};
