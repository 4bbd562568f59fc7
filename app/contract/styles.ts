/**
 * Styles (SPEC §3 "style", §7 "Styles: CRUD under /styles; random; featured; score;
 * categorisation queue; product add and remove"). Reads are public; writes need `catalog.edit`.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate, Ok, TargetGender, intParam } from "./common";
import { ProductCardSchema } from "./products";

export const CategorisationStatusSchema = z.enum(["pending", "processing", "completed", "failed"]);

export const StyleSchema = z.object({
  id: z.string(),
  name: z.string(),
  handle: z.string(),
  description: z.string().nullable(),
  image_url: z.string().nullable(),
  featured: z.boolean(),
  score: z.number(),
  target_gender: TargetGender,
  categorisation_status: CategorisationStatusSchema,
  product_count: z.number().int(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Style = z.output<typeof StyleSchema>;

/** What the last categorisation found: the style's products grouped by category. */
export const StyleCategorisationSchema = z.object({
  status: CategorisationStatusSchema,
  job_id: z.string().nullable(),
  completed_at: IsoDate.nullable(),
  error: z.string().nullable(),
  result: z
    .object({
      productCount: z.number().int(),
      categories: z.array(z.object({ category: z.string(), count: z.number().int(), productIds: z.array(z.string()) })),
      topTags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
      uncategorised: z.array(z.string()),
    })
    .nullable(),
});

export const StyleDetailSchema = StyleSchema.extend({
  products: z.array(ProductCardSchema),
  categorisation: StyleCategorisationSchema.nullable(),
});

const Name = z.string().trim().min(1, "must not be empty").max(120);
const Handle = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "use lower-case letters, digits and single hyphens");
const ImageUrl = z.string().trim().max(2000).refine((v) => /^(https?:\/\/|\/)/.test(v), "image_url must be an http(s) URL or a path");
const ProductIds = z.array(z.string().trim().min(1)).max(200);

/**
 * A style's score: lists sort by it, and admins set it by hand. Bounded so a value such as 1.7e308
 * (finite, but past what sums and averages over it can hold) is refused at the door.
 */
export const STYLE_SCORE_MAX = 1_000_000;
const StyleScore = z.number().finite().min(-STYLE_SCORE_MAX).max(STYLE_SCORE_MAX);

const StyleWrite = z.object({
  name: Name,
  handle: Handle.optional(),
  description: z.string().trim().max(2000).nullable().optional(),
  image_url: ImageUrl.nullable().optional(),
  featured: z.boolean().optional(),
  score: StyleScore.optional(),
  target_gender: TargetGender.optional(),
});

const ProductsBody = z.object({
  products: z.array(z.string().trim().min(1, "must not be empty")).min(1, "give at least one product id").max(200),
});

const StylesPage = z.object({ styles: z.array(StyleSchema), total: z.number().int(), skip: z.number().int(), take: z.number().int() });

export const stylesEndpoints = {
  stylesList: endpoint({
    method: "GET",
    path: "/styles",
    summary: "List styles (skip/take, with the total)",
    tags: ["Styles"],
    access: access.public,
    query: z.object({
      skip: intParam(0, 0, 1_000_000),
      take: intParam(20, 1, 100),
      q: z.string().trim().max(120).optional(),
      featured: z.stringbool().optional(),
      target_gender: TargetGender.optional(),
      sort: z.enum(["score", "name", "created"]).default("score"),
    }),
    response: StylesPage,
  }),
  stylesRandom: endpoint({
    method: "GET",
    path: "/styles/random",
    summary: "Random featured or active styles; the same seed gives the same order",
    tags: ["Styles"],
    access: access.public,
    query: z.object({ n: intParam(6, 1, 50), seed: z.string().trim().max(200).optional(), target_gender: TargetGender.optional() }),
    response: z.object({ styles: z.array(StyleSchema), seed: z.string().nullable() }),
  }),
  stylesFeatured: endpoint({
    method: "GET",
    path: "/styles/featured",
    summary: "Featured styles, highest score first",
    tags: ["Styles"],
    access: access.public,
    query: z.object({ take: intParam(20, 1, 100), target_gender: TargetGender.optional() }),
    response: z.object({ styles: z.array(StyleSchema) }),
  }),
  stylesCategorisationQueue: endpoint({
    method: "GET",
    path: "/styles/categorisation-queue",
    summary: "Styles waiting for categorisation (pending or failed), oldest first",
    tags: ["Styles"],
    access: access.admin("catalog.edit"),
    query: z.object({ skip: intParam(0, 0, 1_000_000), take: intParam(20, 1, 100) }),
    response: StylesPage,
  }),
  stylesGetById: endpoint({
    method: "GET",
    path: "/styles/{id}",
    summary: "A style (by id or handle) with its products and last categorisation",
    tags: ["Styles"],
    access: access.public,
    params: IdParams,
    response: StyleDetailSchema,
  }),
  stylesCreate: endpoint({
    method: "POST",
    path: "/styles",
    summary: "Create a style",
    tags: ["Styles"],
    access: access.admin("catalog.edit"),
    body: StyleWrite.extend({ products: ProductIds.optional() }),
    response: StyleSchema,
    status: 201,
  }),
  stylesUpdate: endpoint({
    method: "PATCH",
    path: "/styles/{id}",
    summary: "Update a style",
    tags: ["Styles"],
    access: access.admin("catalog.edit"),
    params: IdParams,
    body: StyleWrite.partial(),
    response: StyleSchema,
  }),
  stylesDelete: endpoint({
    method: "DELETE",
    path: "/styles/{id}",
    summary: "Delete a style (its products stay in the catalogue)",
    tags: ["Styles"],
    access: access.admin("catalog.edit"),
    params: IdParams,
    response: Ok,
  }),
  stylesSetScore: endpoint({
    method: "PATCH",
    path: "/styles/{id}/score",
    summary: "Set a style's score",
    tags: ["Styles"],
    access: access.admin("catalog.edit"),
    params: IdParams,
    body: z.object({ score: StyleScore }),
    response: StyleSchema,
  }),
  stylesCategorise: endpoint({
    method: "POST",
    path: "/styles/{id}/categorise",
    summary: "Queue the categorisation of a style's products (job styles.categorise)",
    tags: ["Styles"],
    access: access.admin("catalog.edit"),
    params: IdParams,
    response: z.object({ jobId: z.string(), style: StyleSchema }),
    status: 202,
  }),
  stylesAddProducts: endpoint({
    method: "POST",
    path: "/styles/{id}/products",
    summary: "Add products to a style (unknown ids are refused)",
    tags: ["Styles"],
    access: access.admin("catalog.edit"),
    params: IdParams,
    body: ProductsBody,
    response: z.object({ added: z.number().int(), style: StyleSchema }),
  }),
  stylesRemoveProducts: endpoint({
    method: "DELETE",
    path: "/styles/{id}/products",
    summary: "Remove products from a style",
    tags: ["Styles"],
    access: access.admin("catalog.edit"),
    params: IdParams,
    body: ProductsBody,
    response: z.object({ removed: z.number().int(), style: StyleSchema }),
  }),
};
