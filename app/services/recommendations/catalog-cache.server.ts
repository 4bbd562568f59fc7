/**
 * Small per-process caches of catalogue facts the recommendation lists need on every request,
 * keyed by database client (each test app has its own):
 * - the visible catalogue as (id, gender, productKey) for the random order: ~60 bytes a product,
 *   refreshed every minute in the background (stale-while-revalidate), so no request scans the
 *   products table;
 * - the distinct product types (for complementary types), refreshed every 5 minutes;
 * - "similar products" fills per product (LRU, 10 minutes).
 * A product hidden after a refresh is still filtered out when its card is read (getProductCards
 * checks visibility); a product published after it appears at the next refresh.
 */
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import { visibleProductWhere } from "../visibility";
import { productKey } from "./random-order";

export interface CatalogEntry {
  id: string;
  key: number;
  gender: TargetGender;
}

interface Timed<T> {
  at: number;
  value: T;
  refreshing?: Promise<T>;
}

const SNAPSHOT_TTL_MS = 60_000;
const TYPES_TTL_MS = 5 * 60_000;

const snapshots = new WeakMap<Db, Timed<CatalogEntry[]>>();
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

/** The visible catalogue (ids, genders and random-order keys). */
export function catalogSnapshot(db: Db): Promise<CatalogEntry[]> {
  return cached(snapshots, db, SNAPSHOT_TTL_MS, async () => {
    const rows = await db.product.findMany({ where: visibleProductWhere(), select: { id: true, target_gender: true } });
    return rows.map((r) => ({ id: r.id, key: productKey(r.id), gender: r.target_gender }));
  });
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
