/**
 * Curated looks: admins build them from the catalogue (ordered product ids, cover, gender) and
 * publish them; shoppers read the published ones. Shoppers' generated looks (source `generated`)
 * share the table and are never reached from here.
 */
import type { Outfit as OutfitRow, Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import { OUTFIT_MIN_PRODUCTS_TO_PUBLISH, OUTFIT_STATUS_TRANSITIONS, type OutfitDetail, type OutfitStatus } from "~/contract/outfits";
import { conflictError, invalid, notFoundError } from "~/lib/domain-errors";
import { getProductCards } from "../catalog.server";
import { requireProducts } from "../styles.server";

export const OUTFIT_NOT_FOUND = "Outfit not found";

const CURATED_SOURCES = ["curated", "proposed"] as const;
const curatedWhere = { source: { in: [...CURATED_SOURCES] } } satisfies Prisma.OutfitWhereInput;
const ORDER = [{ sort_order: "asc" }, { published_at: "desc" }, { created_at: "desc" }, { id: "asc" }] satisfies Prisma.OutfitOrderByWithRelationInput[];

/** A gender filter keeps looks for that gender and those for both. */
const genderWhere = (g?: TargetGender): Prisma.OutfitWhereInput => (g && g !== "both" ? { target_gender: { in: [g, "both"] } } : {});

function toOutfit(o: OutfitRow) {
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    image_url: o.image_url,
    source: o.source === "proposed" ? ("proposed" as const) : ("curated" as const),
    status: o.status,
    target_gender: o.target_gender,
    sort_order: o.sort_order,
    product_ids: o.product_ids,
    published_at: o.published_at,
    created_at: o.created_at,
    updated_at: o.updated_at,
  };
}

/** Looks with their product cards, in each look's order, from one product query. */
async function withProducts(db: Db, rows: OutfitRow[], opts: { includeHidden: boolean }): Promise<OutfitDetail[]> {
  const ids = [...new Set(rows.flatMap((r) => r.product_ids))];
  const cards = new Map((await getProductCards(db, ids, { includeHidden: opts.includeHidden })).map((c) => [c.id, c]));
  return rows.map((r) => {
    const o = toOutfit(r);
    return { ...o, created_at: o.created_at.toISOString(), updated_at: o.updated_at.toISOString(), published_at: o.published_at?.toISOString() ?? null, products: r.product_ids.flatMap((id) => (cards.has(id) ? [cards.get(id)!] : [])) };
  });
}

/**
 * What shoppers see: published looks. A look is kept even when some of its products are hidden
 * now (they are left out of its products) as long as two are still shown; fewer is not a look.
 */
const showable = (o: OutfitDetail) => o.products.length >= OUTFIT_MIN_PRODUCTS_TO_PUBLISH;

export async function listPublishedOutfits(db: Db, q: { skip: number; take: number; target_gender?: TargetGender; product_id?: string }) {
  const where: Prisma.OutfitWhereInput = {
    ...curatedWhere,
    status: "published",
    ...genderWhere(q.target_gender),
    ...(q.product_id ? { product_ids: { has: q.product_id } } : {}),
  };
  const rows = await db.outfit.findMany({ where, orderBy: ORDER, skip: q.skip, take: q.take });
  const total = await db.outfit.count({ where });
  // `total` counts published looks; a page can hold fewer when some lost their shown products.
  return { outfits: (await withProducts(db, rows, { includeHidden: false })).filter(showable), total, skip: q.skip, take: q.take };
}

/** Published looks by ids, in the order given (others left out): a collection's saved looks. */
export async function listPublishedOutfitsByIds(db: Db, ids: string[]): Promise<OutfitDetail[]> {
  if (ids.length === 0) return [];
  const rows = await db.outfit.findMany({ where: { id: { in: ids }, ...curatedWhere, status: "published" } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  return (await withProducts(db, ordered, { includeHidden: false })).filter(showable);
}

export async function getPublishedOutfit(db: Db, id: string): Promise<OutfitDetail> {
  const row = await db.outfit.findFirst({ where: { id, ...curatedWhere, status: "published" } });
  const [outfit] = row ? await withProducts(db, [row], { includeHidden: false }) : [];
  if (!outfit || !showable(outfit)) throw notFoundError(OUTFIT_NOT_FOUND);
  return outfit;
}

export async function listAdminOutfits(db: Db, q: { skip: number; take: number; status?: OutfitStatus; target_gender?: TargetGender; q?: string }) {
  const where: Prisma.OutfitWhereInput = {
    ...curatedWhere,
    ...(q.status ? { status: q.status } : {}),
    ...(q.target_gender ? { target_gender: q.target_gender } : {}),
    ...(q.q ? { name: { contains: q.q, mode: "insensitive" } } : {}),
  };
  const rows = await db.outfit.findMany({ where, orderBy: ORDER, skip: q.skip, take: q.take });
  const total = await db.outfit.count({ where });
  return { outfits: await withProducts(db, rows, { includeHidden: true }), total, skip: q.skip, take: q.take };
}

async function findCurated(db: Db, id: string): Promise<OutfitRow> {
  const row = await db.outfit.findFirst({ where: { id, ...curatedWhere } });
  if (!row) throw notFoundError(OUTFIT_NOT_FOUND);
  return row;
}

export async function getAdminOutfit(db: Db, id: string): Promise<OutfitDetail> {
  const [outfit] = await withProducts(db, [await findCurated(db, id)], { includeHidden: true });
  return outfit;
}

export interface OutfitInput {
  name: string;
  description?: string | null;
  image_url?: string | null;
  target_gender?: TargetGender;
  sort_order?: number;
  product_ids?: string[];
}

/** Product ids as given (their order is the look's), every one known, or 400 naming the unknown ones. */
async function orderedKnownProducts(db: Db, ids: string[]): Promise<string[]> {
  const known = new Set(await requireProducts(db, ids));
  return ids.filter((id) => known.has(id));
}

export async function createOutfit(db: Db, input: OutfitInput, actor: { userId: string | null; source?: "curated" | "proposed" }) {
  const productIds = await orderedKnownProducts(db, input.product_ids ?? []);
  const row = await db.outfit.create({
    data: {
      name: input.name,
      description: input.description ?? null,
      image_url: input.image_url ?? null,
      target_gender: input.target_gender ?? "both",
      sort_order: input.sort_order ?? 0,
      product_ids: productIds,
      source: actor.source ?? "curated",
      status: "draft",
      created_by_id: actor.userId,
    },
  });
  return getAdminOutfit(db, row.id);
}

export async function updateOutfit(db: Db, id: string, patch: Partial<OutfitInput>) {
  const row = await findCurated(db, id);
  const productIds = patch.product_ids === undefined ? undefined : await orderedKnownProducts(db, patch.product_ids);
  // A published look may not drop below a look's size: unpublish it first.
  if (productIds && row.status === "published" && productIds.length < OUTFIT_MIN_PRODUCTS_TO_PUBLISH) {
    throw conflictError(`A published look keeps at least ${OUTFIT_MIN_PRODUCTS_TO_PUBLISH} products: unpublish it first`);
  }
  await db.outfit.update({
    where: { id: row.id },
    data: {
      name: patch.name,
      description: patch.description,
      image_url: patch.image_url,
      target_gender: patch.target_gender,
      sort_order: patch.sort_order,
      product_ids: productIds,
    },
  });
  return getAdminOutfit(db, row.id);
}

export async function setOutfitStatus(db: Db, id: string, status: OutfitStatus) {
  const row = await findCurated(db, id);
  if (row.status === status) throw conflictError(`The look is already ${status}`);
  if (!OUTFIT_STATUS_TRANSITIONS[row.status].includes(status)) {
    throw conflictError(`${row.status === "archived" ? "An" : "A"} ${row.status} look cannot become ${status}${row.status === "archived" ? ": move it back to draft first" : ""}`);
  }
  if (status === "published" && row.product_ids.length < OUTFIT_MIN_PRODUCTS_TO_PUBLISH) {
    throw invalid(`A look needs at least ${OUTFIT_MIN_PRODUCTS_TO_PUBLISH} products to be published`);
  }
  await db.outfit.update({
    where: { id: row.id },
    // published_at says when it was last published: unpublishing keeps it for the record.
    data: { status, ...(status === "published" ? { published_at: new Date() } : {}) },
  });
  return getAdminOutfit(db, row.id);
}

export async function deleteOutfit(db: Db, id: string) {
  const row = await findCurated(db, id);
  await db.outfit.delete({ where: { id: row.id } });
  return { ok: true as const };
}
