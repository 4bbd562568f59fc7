/**
 * Styles: curated looks (e.g. "Minimalist", "Streetwear") with their products, a score, a
 * featured flag and a categorisation run that groups the style's products by category.
 */
import crypto from "node:crypto";
import type { Prisma, Style as StyleRow } from "@prisma/client";
import type { Db } from "~/db.server";
import type { AppContext } from "~/context.server";
import type { TargetGender } from "~/contract";
import { conflictError as conflict, invalid as badRequest, notFoundError as notFound } from "~/lib/domain-errors";
import { toProductGid } from "~/lib/gid";
import { toProductCard } from "./catalog.server";

export const CATEGORISE_QUEUE = "styles.categorise";
/** The detail page shows at most this many products (a style's product_count says how many it has). */
export const STYLE_DETAIL_PRODUCTS = 200;

import { cardSelect as productCardSelect } from "./catalog.server";
export { productCardSelect };

export const toCard = (p: Prisma.ProductGetPayload<{ select: typeof productCardSelect }>) => toProductCard(p);

type StyleWithCount = StyleRow & { _count: { products: number } };
const withCount = { _count: { select: { products: true } } } satisfies Prisma.StyleInclude;

export function toStyle(s: StyleWithCount) {
  return {
    id: s.id,
    name: s.name,
    handle: s.handle,
    description: s.description,
    image_url: s.image_url,
    featured: s.featured,
    score: s.score,
    target_gender: s.target_gender,
    categorisation_status: s.categorisation_status,
    product_count: s._count.products,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function slugify(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 100) || "style"
  );
}

/** A style gender filter keeps styles for that gender and those for both. */
const genderWhere = (g?: TargetGender): Prisma.StyleWhereInput => (g && g !== "both" ? { target_gender: { in: [g, "both"] } } : {});

const ORDER = {
  score: [{ score: "desc" }, { name: "asc" }, { id: "asc" }],
  name: [{ name: "asc" }, { id: "asc" }],
  created: [{ created_at: "desc" }, { id: "asc" }],
} satisfies Record<string, Prisma.StyleOrderByWithRelationInput[]>;

export async function listStyles(db: Db, q: { skip: number; take: number; q?: string; featured?: boolean; target_gender?: TargetGender; sort: keyof typeof ORDER }) {
  const where: Prisma.StyleWhereInput = {
    ...genderWhere(q.target_gender),
    ...(q.featured === undefined ? {} : { featured: q.featured }),
    ...(q.q ? { OR: [{ name: { contains: q.q, mode: "insensitive" } }, { handle: { contains: q.q.toLowerCase() } }] } : {}),
  };
  // Sequential on purpose: the embedded database serves one statement stream at a time.
  const rows = await db.style.findMany({ where, include: withCount, orderBy: ORDER[q.sort], skip: q.skip, take: q.take });
  const total = await db.style.count({ where });
  return { styles: rows.map(toStyle), total, skip: q.skip, take: q.take };
}

export async function featuredStyles(db: Db, q: { take: number; target_gender?: TargetGender }) {
  const rows = await db.style.findMany({ where: { featured: true, ...genderWhere(q.target_gender) }, include: withCount, orderBy: ORDER.score, take: q.take });
  return { styles: rows.map(toStyle) };
}

/** A number in [0, 1) from a seed and an id: the same pair always gives the same number. */
function seededRank(seed: string, id: string): number {
  return crypto.createHash("sha256").update(`${seed}\u0000${id}`).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * `n` random styles among those that are featured or active (an active style has at least one
 * active product). With a seed the order is stable (a shopper's session keeps its order while
 * paging or reloading); without one every call shuffles anew.
 */
export async function randomStyles(db: Db, q: { n: number; seed?: string; target_gender?: TargetGender }) {
  const rows = await db.style.findMany({
    where: { ...genderWhere(q.target_gender), OR: [{ featured: true }, { products: { some: { product: { status: "active" } } } }] },
    include: withCount,
  });
  const seed = q.seed ?? null;
  const rank = new Map(rows.map((r) => [r.id, seed === null ? Math.random() : seededRank(seed, r.id)]));
  rows.sort((x, y) => rank.get(x.id)! - rank.get(y.id)! || x.id.localeCompare(y.id));
  return { styles: rows.slice(0, q.n).map(toStyle), seed };
}

async function findStyle(db: Db, idOrHandle: string) {
  const style = await db.style.findFirst({ where: { OR: [{ id: idOrHandle }, { handle: idOrHandle.toLowerCase() }] }, include: withCount });
  if (!style) throw notFound("Style not found");
  return style;
}

export async function getStyle(db: Db, idOrHandle: string) {
  const style = await findStyle(db, idOrHandle);
  const links = await db.styleProduct.findMany({
    where: { style_id: style.id },
    orderBy: [{ position: "asc" }, { created_at: "asc" }],
    take: STYLE_DETAIL_PRODUCTS,
    select: { product: { select: productCardSelect } },
  });
  return { ...toStyle(style), products: links.map((l) => toCard(l.product)), categorisation: await lastCategorisation(db, style) };
}

async function lastCategorisation(db: Db, style: StyleRow) {
  const job = await db.job.findFirst({
    where: { queue: CATEGORISE_QUEUE, payload: { path: ["styleId"], equals: style.id } },
    orderBy: { created_at: "desc" },
  });
  if (!job) return null;
  const result = job.result as { categorisation?: CategorisationResult | null; error?: string } | null;
  return {
    status: style.categorisation_status,
    job_id: job.id,
    completed_at: job.completed_at,
    error: job.error ?? result?.error ?? null,
    result: result?.categorisation ?? null,
  };
}

/** Normalises and checks product ids: every one must exist, or the call is refused with the unknown ones. */
export async function requireProducts(db: Db, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids.map(toProductGid))];
  if (wanted.length === 0) return [];
  const found = await db.product.findMany({ where: { id: { in: wanted } }, select: { id: true } });
  const known = new Set(found.map((p) => p.id));
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length) throw badRequest(`Unknown product ids: ${unknown.slice(0, 10).join(", ")}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ""}`, { unknown });
  return wanted;
}

async function freeHandle(db: Db, wanted: string | undefined, name: string, exceptId?: string): Promise<string> {
  if (wanted) {
    const taken = await db.style.findFirst({ where: { handle: wanted, ...(exceptId ? { NOT: { id: exceptId } } : {}) }, select: { id: true } });
    if (taken) throw conflict(`A style with the handle "${wanted}" already exists`);
    return wanted;
  }
  const base = slugify(name);
  for (let i = 1; ; i++) {
    const handle = i === 1 ? base : `${base}-${i}`;
    const taken = await db.style.findFirst({ where: { handle, ...(exceptId ? { NOT: { id: exceptId } } : {}) }, select: { id: true } });
    if (!taken) return handle;
  }
}

export interface StyleInput {
  name: string;
  handle?: string;
  description?: string | null;
  image_url?: string | null;
  featured?: boolean;
  score?: number;
  target_gender?: TargetGender;
  products?: string[];
}

export async function createStyle(db: Db, input: StyleInput) {
  const productIds = await requireProducts(db, input.products ?? []);
  const handle = await freeHandle(db, input.handle, input.name);
  const style = await db.style.create({
    data: {
      name: input.name,
      handle,
      description: input.description ?? null,
      image_url: input.image_url ?? null,
      featured: input.featured ?? false,
      score: input.score ?? 0,
      target_gender: input.target_gender ?? "both",
      categorisation_status: "pending",
      products: { create: productIds.map((product_id, position) => ({ product_id, position })) },
    },
    include: withCount,
  });
  return toStyle(style);
}

export async function updateStyle(db: Db, idOrHandle: string, patch: Partial<Omit<StyleInput, "products">>) {
  const style = await findStyle(db, idOrHandle);
  const handle = patch.handle !== undefined && patch.handle !== style.handle ? await freeHandle(db, patch.handle, style.name, style.id) : undefined;
  const updated = await db.style.update({
    where: { id: style.id },
    data: {
      name: patch.name,
      handle,
      description: patch.description,
      image_url: patch.image_url,
      featured: patch.featured,
      score: patch.score,
      target_gender: patch.target_gender,
    },
    include: withCount,
  });
  return toStyle(updated);
}

export async function setStyleScore(db: Db, idOrHandle: string, score: number) {
  return updateStyle(db, idOrHandle, { score });
}

export async function deleteStyle(db: Db, idOrHandle: string) {
  const style = await findStyle(db, idOrHandle);
  await db.style.delete({ where: { id: style.id } });
  return { ok: true as const };
}

export async function addStyleProducts(db: Db, idOrHandle: string, ids: string[]) {
  const style = await findStyle(db, idOrHandle);
  const productIds = await requireProducts(db, ids);
  const last = await db.styleProduct.aggregate({ where: { style_id: style.id }, _max: { position: true } });
  const start = (last._max.position ?? -1) + 1;
  const r = await db.styleProduct.createMany({
    data: productIds.map((product_id, i) => ({ style_id: style.id, product_id, position: start + i })),
    skipDuplicates: true,
  });
  if (r.count > 0) await db.style.update({ where: { id: style.id }, data: { categorisation_status: "pending" } });
  return { added: r.count, style: toStyle(await findStyle(db, style.id)) };
}

export async function removeStyleProducts(db: Db, idOrHandle: string, ids: string[]) {
  const style = await findStyle(db, idOrHandle);
  const productIds = await requireProducts(db, ids);
  const r = await db.styleProduct.deleteMany({ where: { style_id: style.id, product_id: { in: productIds } } });
  if (r.count > 0) await db.style.update({ where: { id: style.id }, data: { categorisation_status: "pending" } });
  return { removed: r.count, style: toStyle(await findStyle(db, style.id)) };
}

export async function categorisationQueue(db: Db, q: { skip: number; take: number }) {
  const where: Prisma.StyleWhereInput = { categorisation_status: { in: ["pending", "failed"] } };
  const rows = await db.style.findMany({ where, include: withCount, orderBy: [{ created_at: "asc" }, { id: "asc" }], skip: q.skip, take: q.take });
  const total = await db.style.count({ where });
  return { styles: rows.map(toStyle), total, skip: q.skip, take: q.take };
}

/** Queues a categorisation run (one per style at a time) and marks the style pending. */
export async function enqueueCategorisation(ctx: Pick<AppContext, "db" | "queue">, idOrHandle: string) {
  const style = await findStyle(ctx.db, idOrHandle);
  const job = await ctx.queue.enqueue(CATEGORISE_QUEUE, { styleId: style.id }, { dedupeKey: `${CATEGORISE_QUEUE}:${style.id}`, maxAttempts: 3 });
  const updated = await ctx.db.style.update({ where: { id: style.id }, data: { categorisation_status: "pending" }, include: withCount });
  return { jobId: job.id, style: toStyle(updated) };
}

// ---------------------------------------------------------------------------------------------
// Categorisation

/** Garment categories recognised from a product's type, tags or title (first match wins). */
const CATEGORY_WORDS: [category: string, words: string[]][] = [
  ["Dresses", ["dress", "dresses", "gown"]],
  ["Skirts", ["skirt", "skirts"]],
  ["Jeans", ["jeans", "denim-jeans"]],
  ["Trousers", ["trousers", "pants", "chinos", "joggers", "cargo"]],
  ["Shorts", ["shorts"]],
  ["Coats", ["coat", "coats", "parka", "trench"]],
  ["Jackets", ["jacket", "jackets", "bomber", "blazer", "blazers"]],
  ["Knitwear", ["sweater", "sweaters", "cardigan", "cardigans", "knit", "knitwear", "jumper"]],
  ["Hoodies & sweatshirts", ["hoodie", "hoodies", "sweatshirt", "sweatshirts"]],
  ["Shirts", ["shirt", "shirts", "blouse", "blouses"]],
  ["Polos", ["polo", "polos"]],
  ["T-shirts & tops", ["t-shirt", "t-shirts", "tee", "tees", "tshirt", "top", "tops", "tank"]],
  ["Shoes", ["shoe", "shoes", "sneaker", "sneakers", "boot", "boots", "sandals", "loafers"]],
  ["Accessories", ["bag", "bags", "tote", "cap", "hat", "scarf", "belt", "accessory", "accessories"]],
];

function categoryOf(p: { productType: string; tags: string[]; title: string }): string | null {
  const words = (text: string) => text.toLowerCase().split(/[^a-z0-9-]+/).filter(Boolean);
  const sources = [words(p.productType), p.tags.flatMap(words), words(p.title)];
  for (const source of sources) {
    for (const [category, keys] of CATEGORY_WORDS) if (keys.some((k) => source.includes(k))) return category;
  }
  // An unrecognised but explicit product type is a category of its own.
  const type = p.productType.trim();
  return type ? type.replace(/\b\w/g, (c) => c.toUpperCase()) : null;
}

export interface CategorisationResult {
  productCount: number;
  categories: { category: string; count: number; productIds: string[] }[];
  topTags: { tag: string; count: number }[];
  uncategorised: string[];
}

/** Pure and deterministic: the same products always give the same result. */
export function categoriseProducts(products: { id: string; productType: string; tags: string[]; title: string }[]): CategorisationResult {
  const byCategory = new Map<string, string[]>();
  const uncategorised: string[] = [];
  const tagCounts = new Map<string, number>();
  for (const p of products) {
    const c = categoryOf(p);
    if (c) byCategory.set(c, [...(byCategory.get(c) ?? []), p.id]);
    else uncategorised.push(p.id);
    for (const t of new Set(p.tags.map((x) => x.trim().toLowerCase()).filter(Boolean))) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
  }
  return {
    productCount: products.length,
    categories: [...byCategory.entries()]
      .map(([category, ids]) => ({ category, count: ids.length, productIds: ids }))
      .sort((a, b) => b.count - a.count || a.category.localeCompare(b.category)),
    topTags: [...tagCounts.entries()]
      .map(([tag, count]) => ({ tag, count }))
      .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag))
      .slice(0, 10),
    uncategorised,
  };
}

/**
 * The `styles.categorise` job: groups the style's products by category (from product type, tags,
 * then title) and records the result on the job; the style ends `completed`, or `failed` when it
 * has no products to categorise.
 */
export async function runStyleCategorisation(ctx: Pick<AppContext, "db">, styleId: string, progress?: (p: number) => Promise<void>) {
  const style = await ctx.db.style.findUnique({ where: { id: styleId } });
  if (!style) return { styleId, skipped: "The style no longer exists" };
  await ctx.db.style.update({ where: { id: styleId }, data: { categorisation_status: "processing" } });
  try {
    const links = await ctx.db.styleProduct.findMany({
      where: { style_id: styleId },
      orderBy: [{ position: "asc" }, { created_at: "asc" }],
      select: { product: { select: { id: true, productType: true, tags: true, title: true } } },
    });
    await progress?.(50);
    if (links.length === 0) {
      await ctx.db.style.update({ where: { id: styleId }, data: { categorisation_status: "failed" } });
      return { styleId, status: "failed", error: "The style has no products to categorise", categorisation: null };
    }
    const categorisation = categoriseProducts(links.map((l) => l.product));
    await ctx.db.style.update({ where: { id: styleId }, data: { categorisation_status: "completed" } });
    return { styleId, status: "completed", categorisation } as unknown as Prisma.InputJsonValue;
  } catch (e) {
    await ctx.db.style.update({ where: { id: styleId }, data: { categorisation_status: "failed" } }).catch(() => undefined);
    throw e;
  }
}

/** The categorisation job gave up (its runs died, or the last one threw): the style no longer shows "processing". */
export async function closeStyleCategorisation(ctx: Pick<AppContext, "db">, styleId: string) {
  await ctx.db.style.updateMany({ where: { id: styleId, categorisation_status: "processing" }, data: { categorisation_status: "failed" } });
}

// ---------------------------------------------------------------------------------------------
// Product picker (admin screens of styles and drops)

/** Products for an admin picker: every status, by title, handle, vendor, type, or id. */
export async function searchProductsForPicker(db: Db, q: string, take = 20) {
  const text = q.trim();
  const where: Prisma.ProductWhereInput = text
    ? {
        OR: [
          { id: toProductGid(text) },
          { title: { contains: text, mode: "insensitive" } },
          { handle: { contains: text.toLowerCase() } },
          { vendor: { contains: text, mode: "insensitive" } },
          { productType: { contains: text, mode: "insensitive" } },
        ],
      }
    : {};
  const rows = await db.product.findMany({ where, select: { ...productCardSelect, status: true }, orderBy: [{ created_at: "desc" }, { id: "asc" }], take: Math.min(50, Math.max(1, take)) });
  return rows.map((r) => ({ ...toCard(r), status: r.status }));
}
