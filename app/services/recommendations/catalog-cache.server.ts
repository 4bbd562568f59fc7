/**
 * Small per-process caches of catalogue facts the recommendation lists need on every request,
 * keyed by database client (each test app has its own):
 * - the visible catalogue as (id, gender, productKey, publication time) for the random order:
 *   ~100 bytes a product, so no request scans or sorts the products table (see catalogSnapshot);
 * - the distinct product types (for complementary types), refreshed every 5 minutes;
 * - "similar products" fills per product (LRU, 10 minutes).
 */
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import { productKey } from "./random-order";

export interface CatalogEntry {
  id: string;
  key: number;
  gender: TargetGender;
  publishedAt: number;
}

interface SnapshotValue {
  /** created_at of the newest product when loaded */
  newest: number;
  entries: CatalogEntry[];
}

interface Timed<T> {
  at: number;
  value: T;
  refreshing?: Promise<T>;
}

const SNAPSHOT_TTL_MS = 60_000;
const TYPES_TTL_MS = 5 * 60_000;

const snapshots = new WeakMap<Db, Timed<SnapshotValue>>();
const typeLists = new WeakMap<Db, Timed<string[]>>();

async function cached<T>(map: WeakMap<Db, Timed<T>>, db: Db, ttl: number, load: () => Promise<T>): Promise<T> {
  const cur = map.get(db);
  const fresh = () => {
    const p = load().then(
      (value) => {
        map.set(db, { at: Date.now(), value });
        return value;
      },
      (e) => {
        const c = map.get(db);
        if (c) c.refreshing = undefined;
        throw e;
      },
    );
    return p;
  };
  if (!cur) {
    const p = fresh();
    return p;
  }
  if (Date.now() - cur.at > ttl && !cur.refreshing) {
    cur.refreshing = fresh();
    cur.refreshing.catch(() => undefined);
  }
  return cur.value;
}

/**
 * The catalogue a shopper may see now (ids, genders and random-order keys). The snapshot holds the
 * active published products with their publication time (scheduled ones appear when due); it is
 * reloaded at once when a newer product exists (one indexed read per call), else refreshed in the
 * background every minute (status changes of older products show within a minute; a product
 * hidden meanwhile is left out when its card is read).
 */
export async function catalogSnapshot(db: Db, now = new Date()): Promise<CatalogEntry[]> {
  const newest = (await db.product.findFirst({ orderBy: { created_at: "desc" }, select: { created_at: true } }))?.created_at.getTime() ?? 0;
  const cur = snapshots.get(db);
  const load = async () => {
    const rows = await db.product.findMany({ where: { status: "active", publishedAt: { not: null } }, select: { id: true, target_gender: true, publishedAt: true } });
    return { newest, entries: rows.map((r) => ({ id: r.id, key: productKey(r.id), gender: r.target_gender, publishedAt: r.publishedAt!.getTime() })) };
  };
  let value: SnapshotValue;
  if (!cur || cur.value.newest < newest) {
    value = await load();
    snapshots.set(db, { at: Date.now(), value });
  } else {
    value = cur.value;
    if (Date.now() - cur.at > SNAPSHOT_TTL_MS && !cur.refreshing) {
      cur.refreshing = load().then(
        (v) => (snapshots.set(db, { at: Date.now(), value: v }), v),
        (e) => ((cur.refreshing = undefined), Promise.reject(e)),
      );
      cur.refreshing.catch(() => undefined);
    }
  }
  const t = now.getTime();
  return value.entries.filter((e) => e.publishedAt <= t);
}

/** Every distinct product type of the catalogue. */
export function productTypes(db: Db): Promise<string[]> {
  return cached(typeLists, db, TYPES_TTL_MS, async () =>
    (await db.product.findMany({ distinct: ["productType"], select: { productType: true } })).map((r) => r.productType),
  );
}

/** Forgets the cached catalogue facts of a database (tests, after bulk catalogue changes). */
export function forgetCatalogCache(db: Db) {
  snapshots.delete(db);
  typeLists.delete(db);
  similarFills.delete(db);
}

// ---------------------------------------------------------------------------------------------

const SIMILAR_TTL_MS = 10 * 60_000;
const SIMILAR_MAX_ENTRIES = 2000;
const similarFills = new WeakMap<Db, Map<string, { at: number; ids: string[] }>>();

/** A cached list of ids for `key`, computed by `load` when absent or older than 10 minutes. */
export async function cachedSimilar(db: Db, key: string, load: () => Promise<string[]>): Promise<string[]> {
  let m = similarFills.get(db);
  if (!m) similarFills.set(db, (m = new Map()));
  const hit = m.get(key);
  if (hit && Date.now() - hit.at < SIMILAR_TTL_MS) {
    m.delete(key);
    m.set(key, hit); // most recently used last
    return hit.ids;
  }
  const ids = await load();
  m.set(key, { at: Date.now(), ids });
  while (m.size > SIMILAR_MAX_ENTRIES) m.delete(m.keys().next().value!);
  return ids;
}
