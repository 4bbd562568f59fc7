/**
 * Material categories (SPEC §3 "material category with subcategories", §7 "materials"; issue 19):
 * a tree admins keep (create, rename, move under a parent, reorder siblings, delete), which the
 * companion's material sections map raw composition text onto and shoppers filter search by.
 *
 * Deleting: a category and its whole subtree go together, unless a product uses the category or
 * one under it: then 409 (move or merge the products' materials first); nothing is deleted half-way.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, RecordId as Id } from "./common";

export const MATERIAL_MAX_DEPTH = 4;
export const MATERIAL_MAX_KEYWORDS = 40;

export const MaterialMessages = {
  NOT_FOUND: "Material category not found",
  PARENT_NOT_FOUND: "Parent material category not found",
  HANDLE_TAKEN: "A material category with this handle already exists",
  MOVE_INTO_ITSELF: "A material category cannot be moved under itself or one of its subcategories",
  TOO_DEEP: `Material categories go at most ${MATERIAL_MAX_DEPTH} levels deep`,
  ORDER_MISMATCH: "ids must list every subcategory of the parent exactly once",
  inUse: (n: number) => `This material category (or one under it) is used by ${n} product${n === 1 ? "" : "s"}: it cannot be deleted`,
} as const;

export const MaterialCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  handle: z.string(),
  description: z.string().nullable(),
  parent_id: z.string().nullable(),
  sort_order: z.number().int(),
  /** 0 for a top-level category. */
  depth: z.number().int(),
  /** Handles from the top-level category down to this one. */
  path: z.array(z.string()),
  keywords: z.array(z.string()),
  /** Products with this category itself (not counting subcategories). */
  product_count: z.number().int(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type MaterialCategory = z.output<typeof MaterialCategorySchema>;

/** The tree in display order (depth first, siblings by sort_order then name). */
export const MaterialTreeSchema = z.object({ categories: z.array(MaterialCategorySchema) });

/** A product's material: a category with the percentage the composition states (null when none). */
export const ProductMaterialSchema = z.object({ id: z.string(), name: z.string(), handle: z.string(), percent: z.number().nullable() });
export type ProductMaterial = z.output<typeof ProductMaterialSchema>;

const Name = z.string().trim().min(1, "A name is required").max(80, "must be at most 80 characters");
const Handle = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "A handle is required")
  .max(80, "must be at most 80 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must use only a–z, 0–9 and single '-' between words");
const Description = z.string().trim().max(1000, "must be at most 1000 characters");
const Keywords = z
  .array(z.string().trim().toLowerCase().min(1, "a keyword must not be empty").max(60, "a keyword must be at most 60 characters"))
  .max(MATERIAL_MAX_KEYWORDS, `at most ${MATERIAL_MAX_KEYWORDS} keywords`)
  .transform((k) => [...new Set(k)]);

export const MaterialCreateBody = z.object({
  name: Name,
  /** Derived from the name when left out. */
  handle: Handle.optional(),
  description: Description.nullable().optional(),
  parent_id: Id.nullable().optional(),
  keywords: Keywords.optional(),
});

export const MaterialUpdateBody = z
  .object({
    name: Name.optional(),
    handle: Handle.optional(),
    description: Description.nullable().optional(),
    /** Moves the category (with its subtree) under another parent; null makes it top-level. */
    parent_id: Id.nullable().optional(),
    keywords: Keywords.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Nothing to update");

const IdParams = z.object({ id: Id });
const materialsAdmin = access.admin("catalog.edit");

export const materialsEndpoints = {
  materialsList: endpoint({
    method: "GET",
    path: "/materials",
    summary: "The material category tree, depth first (public: the storefront's material filter reads it)",
    tags: ["Materials"],
    access: access.public,
    response: MaterialTreeSchema,
  }),
  materialsCreate: endpoint({
    method: "POST",
    path: "/materials",
    summary: "Create a material category, top-level or under parent_id (placed last among its siblings)",
    tags: ["Materials"],
    access: materialsAdmin,
    body: MaterialCreateBody,
    response: MaterialCategorySchema,
    status: 201,
  }),
  materialsReorder: endpoint({
    method: "PUT",
    path: "/materials/order",
    summary: "Reorder the subcategories of parent_id (null: the top level): ids lists every one of them once, in the new order",
    tags: ["Materials"],
    access: materialsAdmin,
    body: z.object({ parent_id: Id.nullable(), ids: z.array(Id).min(1, "ids must not be empty").max(500) }),
    response: MaterialTreeSchema,
  }),
  materialsGet: endpoint({
    method: "GET",
    path: "/materials/{id}",
    summary: "A material category",
    tags: ["Materials"],
    access: access.public,
    params: IdParams,
    response: MaterialCategorySchema,
  }),
  materialsUpdate: endpoint({
    method: "PATCH",
    path: "/materials/{id}",
    summary: "Rename, re-handle, describe, set keywords, or move a material category (with its subtree) under another parent (placed last there)",
    tags: ["Materials"],
    access: materialsAdmin,
    params: IdParams,
    body: MaterialUpdateBody,
    response: MaterialCategorySchema,
  }),
  materialsDelete: endpoint({
    method: "DELETE",
    path: "/materials/{id}",
    summary: "Delete a material category with its subtree; 409 when a product uses it or a category under it",
    tags: ["Materials"],
    access: materialsAdmin,
    params: IdParams,
    response: z.object({ ok: z.literal(true), deleted: z.number().int() }),
  }),
};
