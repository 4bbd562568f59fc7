/**
 * Saved try-ons (SPEC §3 SavedTryOn, §4 toggle, §5 requires an authenticated user, §9 20 a page).
 * Mirrors saved products (../saved.server): the caller's own rows only; the toggle takes an
 * optional desired state so a repeated request cannot flip it back. Saving needs one of the
 * caller's own try-ons (404 otherwise, as a missing one); unsaving works for any saved row.
 */
import type { Db } from "~/db.server";
import { notFoundError } from "~/lib/domain-errors";
import { serialisedPerItem } from "~/db/item-lock.server";
import { decodeKeyset, encodeKeyset } from "../saved.server";
import { TRYON_NOT_FOUND, toTryOnView, tryOnInclude } from "./index.server";

const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

export async function listSavedTryOns(db: Db, userId: string, q: { cursor?: string; limit: number }) {
  const after = decodeKeyset(q.cursor);
  const rows = await db.savedTryOn.findMany({
    where: {
      user_id: userId,
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    select: { id: true, tryon_id: true, createdAt: true, tryon: { include: tryOnInclude } },
  });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({ tryon_id: r.tryon_id, createdAt: r.createdAt, tryon: toTryOnView(r.tryon) })),
    nextCursor: rows.length > q.limit && last ? encodeKeyset(last.createdAt, last.id) : null,
  };
}

export async function toggleSavedTryOn(db: Db, userId: string, tryonId: string, desired?: boolean): Promise<{ tryon_id: string; saved: boolean }> {
  // Serialised per (user, try-on): parallel toggles alternate (see ~/db/item-lock.server).
  return serialisedPerItem(db, `saved-tryon:${userId}:${tryonId}`, async (tx) => {
    const where = { user_id: userId, tryon_id: tryonId };
    const existing = await tx.savedTryOn.findFirst({ where, select: { id: true } });
    const want = desired ?? !existing;
    if (!want) {
      if (existing) await tx.savedTryOn.deleteMany({ where });
      return { tryon_id: tryonId, saved: false };
    }
    if (existing) return { tryon_id: tryonId, saved: true };
    const tryon = isUuid(tryonId) ? await tx.tryOn.findFirst({ where: { id: tryonId, user_id: userId }, select: { id: true } }) : null;
    if (!tryon) throw notFoundError(TRYON_NOT_FOUND);
    await tx.savedTryOn.createMany({ data: [where], skipDuplicates: true });
    return { tryon_id: tryonId, saved: true };
  });
}

export async function checkSavedTryOns(db: Db, userId: string, ids: string[]): Promise<{ saved: string[] }> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return { saved: [] };
  const rows = await db.savedTryOn.findMany({ where: { user_id: userId, tryon_id: { in: wanted } }, select: { tryon_id: true } });
  const saved = new Set(rows.map((r) => r.tryon_id));
  return { saved: wanted.filter((id) => saved.has(id)) };
}
