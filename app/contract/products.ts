import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { Money, TargetGender, intParam } from "./common";

export const ImageSchema = z.object({ url: z.string(), altText: z.string().nullable() });

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
});
export type ProductCard = z.output<typeof ProductCardSchema>;

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
};
