/**
 * The ad features catalogue (docs/product-ads.md "Ad features"): formats, placements and extras a
 * request picks. Vendors see the active ones only (an inactive or unknown id is not found to them);
 * the team sees and manages all. A feature chosen by a request is never deleted (the request would
 * lose what was sold): it is deactivated instead.
 */
import { Prisma, type ProductAdFeature } from "@prisma/client";
import type { Db } from "~/db.server";
import { AdRequestMessages, type AdFeature, type AdFeatureKind } from "~/contract/product-ad-requests";
import { conflictError, notFoundError } from "~/lib/domain-errors";

export const FEATURE_KIND_ORDER: Record<AdFeatureKind, number> = { format: 0, placement: 1, extra: 2 };

export function toAdFeature(f: ProductAdFeature): AdFeature {
  return {
    id: f.id,
    code: f.code,
    kind: (f.kind in FEATURE_KIND_ORDER ? f.kind : "extra") as AdFeatureKind,
    name: f.name,
    description: f.description,
    price: f.price ? f.price.toFixed(2) : null,
    currencyCode: f.currencyCode,
    active: f.active,
    sort_order: f.sort_order,
  };
}

/** By kind (formats, placements, extras), then sort order, then name. */
export function sortFeatures<T extends { kind: string; sort_order: number; name: string }>(rows: T[]): T[] {
  const k = (kind: string) => FEATURE_KIND_ORDER[kind as AdFeatureKind] ?? 3;
  return [...rows].sort((a, b) => k(a.kind) - k(b.kind) || a.sort_order - b.sort_order || a.name.localeCompare(b.name));
}

export interface FeatureViewer {
  /** The team sees inactive features too. */
  team: boolean;
}

export async function listAdFeatures(db: Db, viewer: FeatureViewer, q: { kind?: AdFeatureKind; active?: boolean }): Promise<{ items: AdFeature[] }> {
  const active = viewer.team ? q.active : true;
  const rows = await db.productAdFeature.findMany({ where: { ...(q.kind ? { kind: q.kind } : {}), ...(active !== undefined ? { active } : {}) } });
  return { items: sortFeatures(rows).map(toAdFeature) };
}

export async function getAdFeature(db: Db, viewer: FeatureViewer, id: string): Promise<AdFeature> {
  const row = await db.productAdFeature.findUnique({ where: { id } });
  if (!row || (!viewer.team && !row.active)) throw notFoundError(AdRequestMessages.FEATURE_NOT_FOUND);
  return toAdFeature(row);
}

export interface AdFeatureInput {
  code?: string;
  kind?: AdFeatureKind;
  name?: string;
  description?: string | null;
  price?: number | null;
  currencyCode?: string;
  active?: boolean;
  sort_order?: number;
}

function dataOf(input: AdFeatureInput) {
  return {
    ...(input.code !== undefined ? { code: input.code } : {}),
    ...(input.kind !== undefined ? { kind: input.kind } : {}),
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description || null } : {}),
    ...(input.price !== undefined ? { price: input.price === null ? null : new Prisma.Decimal(input.price.toFixed(2)) } : {}),
    ...(input.currencyCode !== undefined ? { currencyCode: input.currencyCode } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(input.sort_order !== undefined ? { sort_order: input.sort_order } : {}),
  };
}

const isUniqueViolation = (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";

export async function createAdFeature(db: Db, input: AdFeatureInput & { code: string; kind: AdFeatureKind; name: string }): Promise<AdFeature> {
  try {
    return toAdFeature(await db.productAdFeature.create({ data: { ...dataOf(input), code: input.code, kind: input.kind, name: input.name } }));
  } catch (e) {
    if (isUniqueViolation(e)) throw conflictError(AdRequestMessages.CODE_TAKEN);
    throw e;
  }
}

export async function updateAdFeature(db: Db, id: string, input: AdFeatureInput): Promise<AdFeature> {
  const existing = await db.productAdFeature.findUnique({ where: { id }, select: { id: true } });
  if (!existing) throw notFoundError(AdRequestMessages.FEATURE_NOT_FOUND);
  try {
    return toAdFeature(await db.productAdFeature.update({ where: { id }, data: dataOf(input) }));
  } catch (e) {
    if (isUniqueViolation(e)) throw conflictError(AdRequestMessages.CODE_TAKEN);
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025") throw notFoundError(AdRequestMessages.FEATURE_NOT_FOUND);
    throw e;
  }
}

export async function deleteAdFeature(db: Db, id: string): Promise<{ ok: true }> {
  // One transaction: a request choosing the feature between the count and the delete would
  // otherwise lose it through the cascade.
  return db.$transaction(async (tx) => {
    const row = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM product_ad_features WHERE id = ${id} FOR UPDATE`;
    if (row.length === 0) throw notFoundError(AdRequestMessages.FEATURE_NOT_FOUND);
    const used = await tx.productAdRequestFeature.count({ where: { feature_id: id } });
    if (used > 0) throw conflictError(AdRequestMessages.featureInUse(used), { requests: used });
    await tx.productAdFeature.delete({ where: { id } });
    return { ok: true as const };
  });
}
