/**
 * The admin order list (GET /api/orders/admin, the Orders screen): search, filters, sort and keyset
 * paging, and the page's summaries. Every plan below answers the same rows in the same order as the
 * plain definition — the orders matching the search and the filters, in the page's order, after the
 * cursor — and differs only in how PostgreSQL (or the embedded PGlite, same SQL) finds them.
 *
 * The plan, per query:
 * - no search: the filters and the keyset as one query on the orders (the status and date indexes);
 * - "#1234": the unique name index; a whole email: the email's trigram index;
 * - otherwise a capped probe of the text matches (items first, then emails, tracking numbers, names,
 *   customers). Up to SEARCH_TUNING.broadMatches (150) the matching ids are the candidates: one query
 *   with the filters.
 * - Above, the search is "broad": the orders are walked in the page's order with the search as a
 *   condition and stop at a page + 1 (collecting and sorting thousands of matches is what made a
 *   common word slow). How each walked order is tested depends on the items' share of the matches:
 *   - items matched broadly (a common title word: "shirt"): the first SEARCH_TUNING.walkWindow (300)
 *     orders passing the filters are tested one by one through the order_id index (a page fills
 *     within a few hundred); only if the window ends without a full page does the walk go on past it
 *     as below;
 *   - otherwise, and after the window: the matching items are hashed once and each order is a hash
 *     probe. PostgreSQL picks this plan for an EXISTS under OR whatever the LIMIT (it plans for every
 *     order the filters let through), which made a common word with a status filter read all of its
 *     ~30,000 items to fill one page; the window is what a LIMIT-aware planner would have done.
 * The page's summaries (customer, item count and stage) come with the page in the same query. A sort
 * by total walks the (total_price, id) index like the others walk created_at and name.
 */
import { Prisma as P } from "@prisma/client";
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { invalid } from "~/lib/domain-errors";
import type { OrderItemStatusValue } from "~/contract/admin-orders";
import { orderStage, type ItemStatusValue, type OrderStatusValue } from "../account-orders-rules";

// ---------------------------------------------------------------------------------------------
// Summaries (shared with the order detail, which extends them)

/** What a summary is made of: the order row, its items' statuses and quantities, its customer. */
export interface OrderSummarySource {
  id: string;
  name: string;
  order_number: number | null;
  status: OrderStatusValue;
  financial_status: string | null;
  fulfillment_status: string | null;
  created_at: Date;
  cancelled_at: Date | null;
  total_price: Prisma.Decimal;
  currencyCode: string;
  user_id: string | null;
  email: string | null;
  shipping_address: Prisma.JsonValue | null;
  tags: string[] | null;
  user: { email: string | null; first_name: string | null; last_name: string | null } | null;
  items: { status: ItemStatusValue; quantity: number; fulfillments?: readonly { quantity: number }[] }[];
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);
export const addressObject = (v: Prisma.JsonValue | null): Record<string, unknown> | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

export function customerOf(o: OrderSummarySource) {
  const a = addressObject(o.shipping_address);
  const fromUser = o.user ? [o.user.first_name, o.user.last_name].filter((x) => x && x.trim()).join(" ") : "";
  const fromAddress = a ? [str(a.first_name), str(a.last_name)].filter(Boolean).join(" ") || str(a.name) || "" : "";
  return {
    user_id: o.user_id,
    email: o.email ?? o.user?.email ?? null,
    name: fromUser || fromAddress || null,
  };
}

export function toSummary(o: OrderSummarySource) {
  return {
    id: o.id,
    name: o.name,
    order_number: o.order_number,
    status: o.status,
    stage: orderStage(o),
    financial_status: o.financial_status,
    fulfillment_status: o.fulfillment_status,
    created_at: o.created_at,
    cancelled_at: o.cancelled_at,
    total: { amount: o.total_price.toFixed(2), currencyCode: o.currencyCode },
    customer: customerOf(o),
    item_count: o.items.reduce((n, i) => n + i.quantity, 0),
    tags: o.tags ?? [],
  };
}

/** A summary row as the page query returns it (the user's columns flat, the items as JSON). */
interface SummaryRow {
  id: string;
  name: string;
  order_number: number | null;
  status: OrderStatusValue;
  financial_status: string | null;
  fulfillment_status: string | null;
  created_at: Date;
  cancelled_at: Date | null;
  total_price: Prisma.Decimal;
  currency_code: string;
  user_id: string | null;
  email: string | null;
  shipping_address: Prisma.JsonValue | null;
  tags: string[] | null;
  user_row_id: string | null;
  user_email: string | null;
  user_first_name: string | null;
  user_last_name: string | null;
  items: { status: ItemStatusValue; quantity: number; fulfillments: { quantity: number }[] }[] | null;
}

const fromRow = (r: SummaryRow): OrderSummarySource => ({
  ...r,
  currencyCode: r.currency_code,
  user: r.user_row_id ? { email: r.user_email, first_name: r.user_first_name, last_name: r.user_last_name } : null,
  items: r.items ?? [],
});

/**
 * The page's rows with their summaries, in one query: `inner` selects the page (orders `o`, in the
 * page's order, limited); the customer, the items and their sent quantities are read for those rows
 * only. The outer ORDER BY restores the page's order after the join.
 */
function withSummaries(inner: Prisma.Sql, order: Prisma.Sql, extra: Prisma.Sql = P.empty): Prisma.Sql {
  return P.sql`SELECT ${extra} o.id, o.name, o.order_number, o.status::text AS status, o.financial_status, o.fulfillment_status,
      o.created_at, o.cancelled_at, o.total_price, o."currencyCode" AS currency_code, o.user_id, o.email, o.shipping_address, o.tags,
      u.id AS user_row_id, u.email AS user_email, u.first_name AS user_first_name, u.last_name AS user_last_name,
      (SELECT json_agg(json_build_object('status', i.status, 'quantity', i.quantity, 'fulfillments',
                (SELECT coalesce(json_agg(json_build_object('quantity', f.quantity)), '[]'::json) FROM order_item_fulfillments f WHERE f.order_item_id = i.id)))
         FROM order_items i WHERE i.order_id = o.id) AS items
    FROM (${inner}) o LEFT JOIN users u ON u.id = o.user_id
    ORDER BY ${order}`;
}

// ---------------------------------------------------------------------------------------------
// Query, sort, cursor

export type AdminOrderSort = "created_at_desc" | "created_at_asc" | "total_desc" | "total_asc" | "name_desc" | "name_asc";
const SORT_FIELD = {
  created_at: "created_at",
  total: "total_price",
  name: "name",
} as const;
type SortField = (typeof SORT_FIELD)[keyof typeof SORT_FIELD];
type Direction = "asc" | "desc";
type CursorValue = Date | P.Decimal | string;
type Keyset = { value: CursorValue; id: string };

export type AdminOrderQuery = {
  q?: string;
  financialStatus?: string;
  fulfillmentStatus?: string;
  itemStatus?: OrderItemStatusValue;
  status?: "open" | "cancelled" | "closed";
  vendorId?: string;
  storeId?: string;
  from?: Date;
  to?: Date;
  sort?: AdminOrderSort;
  cursor?: string;
  limit?: number;
};

function parseSort(sort: AdminOrderSort) {
  const dir: Direction = sort.endsWith("_asc") ? "asc" : "desc";
  const key = sort.replace(/_(asc|desc)$/, "") as keyof typeof SORT_FIELD;
  return { field: SORT_FIELD[key], dir };
}

const BAD_CURSOR = "cursor is invalid: pass the nextCursor of the previous page with the same sort";

function encodeCursor(sort: AdminOrderSort, value: string, id: string) {
  return Buffer.from(JSON.stringify([sort, value, id])).toString("base64url");
}

function decodeCursor(sort: AdminOrderSort, field: SortField, cursor: string | undefined): Keyset | null {
  if (!cursor) return null;
  let raw: { value: string; id: string } | null = null;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString()) as unknown;
    if (Array.isArray(v) && v.length === 3 && v[0] === sort && typeof v[1] === "string" && typeof v[2] === "string") raw = { value: v[1], id: v[2] };
  } catch {
    /* refused below */
  }
  if (!raw) throw invalid(BAD_CURSOR);
  if (field === "created_at") {
    const d = new Date(raw.value);
    if (Number.isNaN(d.getTime())) throw invalid(BAD_CURSOR);
    return { value: d, id: raw.id };
  }
  if (field === "total_price") {
    try {
      return { value: new P.Decimal(raw.value), id: raw.id };
    } catch {
      throw invalid(BAD_CURSOR);
    }
  }
  return { value: raw.value, id: raw.id };
}

const keyOf = (field: SortField, o: { created_at: Date; total_price: P.Decimal; name: string }): CursorValue =>
  field === "created_at" ? o.created_at : field === "total_price" ? o.total_price : o.name;
const cursorText = (v: CursorValue) => (v instanceof Date ? v.toISOString() : v.toString());

// ---------------------------------------------------------------------------------------------
// SQL pieces (identifiers from the SORT_FIELD whitelist; every value a bound parameter)

function filterSql(query: AdminOrderQuery): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (query.financialStatus) where.push(P.sql`o.financial_status = ${query.financialStatus}`);
  if (query.fulfillmentStatus) where.push(P.sql`o.fulfillment_status = ${query.fulfillmentStatus}`);
  if (query.status) where.push(P.sql`o.status = ${query.status}::"OrderStatus"`);
  if (query.itemStatus) where.push(P.sql`EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND i.status = ${query.itemStatus}::"OrderItemStatus")`);
  if (query.vendorId) where.push(P.sql`EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND i.vendor_id = ${query.vendorId})`);
  if (query.storeId) where.push(P.sql`EXISTS (SELECT 1 FROM order_items i JOIN products p ON p.id = i.product_id WHERE i.order_id = o.id AND p.store_id = ${query.storeId})`);
  // Timestamps are stored as UTC without a zone: an ISO string cast to timestamp compares alike.
  if (query.from) where.push(P.sql`o.created_at >= ${query.from.toISOString()}::timestamp`);
  if (query.to) where.push(P.sql`o.created_at <= ${query.to.toISOString()}::timestamp`);
  return where;
}

/** (value, id) strictly after the keyset in the page's direction. */
function afterSql(field: SortField, dir: Direction, after: Keyset): Prisma.Sql {
  const v = after.value;
  const value = v instanceof Date ? P.sql`${v.toISOString()}::timestamp` : v instanceof P.Decimal ? P.sql`${v.toString()}::numeric` : P.sql`${v}`;
  const column = P.raw(`o.${field}`);
  return dir === "desc" ? P.sql`(${column}, o.id) < (${value}, ${after.id})` : P.sql`(${column}, o.id) > (${value}, ${after.id})`;
}

const orderSql = (field: SortField, dir: Direction) => P.raw(`o.${field} ${dir === "desc" ? "DESC" : "ASC"}, o.id ${dir === "desc" ? "DESC" : "ASC"}`);
const whereSql = (where: Prisma.Sql[]) => (where.length ? P.sql`WHERE ${P.join(where, " AND ")}` : P.empty);

const likeOf = (s: string) => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/**
 * The search as a condition on one order `o`. `perOrder`: each order's items are looked up through
 * the order_id index (the walk's window); otherwise PostgreSQL may hash every matching item first.
 * OFFSET 0 is what keeps it per order: an EXISTS with an OFFSET is not turned into a hashable IN.
 */
function searchSql(raw: string, perOrder: boolean): Prisma.Sql {
  const q = raw.trim();
  const like = likeOf(q);
  const items = P.sql`SELECT 1 FROM order_items i WHERE i.order_id = o.id AND (i.title ILIKE ${like} OR i.sku ILIKE ${like} OR i.tracking_number = ${q})`;
  const or: Prisma.Sql[] = [P.sql`o.name ILIKE ${like}`, P.sql`o.email ILIKE ${like}`, perOrder ? P.sql`EXISTS (${items} OFFSET 0)` : P.sql`EXISTS (${items})`];
  const number = /^#?(\d{1,9})$/.exec(q)?.[1];
  if (number) or.push(P.sql`o.order_number = ${Number(number)}`, P.sql`o.name = ${`#${number}`}`);
  const words = q.split(/\s+/).filter(Boolean);
  // The customers' names as IN (uncorrelated): the matching accounts are found once (trigram
  // indexes) and each order is tested against a hash of them.
  if (words.length >= 2) {
    or.push(P.sql`o.user_id IN (SELECT u.id FROM users u WHERE u.first_name ILIKE ${likeOf(words[0])} AND u.last_name ILIKE ${likeOf(words.slice(1).join(" "))})`);
  } else {
    or.push(P.sql`o.user_id IN (SELECT u.id FROM users u WHERE u.first_name ILIKE ${like} OR u.last_name ILIKE ${like})`);
  }
  return P.sql`(${P.join(or, " OR ")})`;
}

// ---------------------------------------------------------------------------------------------
// The plan

export interface SearchTuning {
  /** Above this many text matches a search is broad (walked); up to it the matching ids are collected. */
  broadMatches: number;
  /** Orders tested one by one before a broad item search hashes its matching items (0: never). */
  walkWindow: number;
}

/**
 * ~150 matches is where collecting the ids and walking cost about the same on 100k orders. A window
 * of 300 orders costs ~2 ms when it does not fill the page, and fills a page of 25 for a word on
 * about 9% of the orders or more (a garment or a material in the benchmark needs ~220), where hashing
 * its matching items costs 10–40 ms (scripts/bench/orders.ts).
 */
export const SEARCH_TUNING: SearchTuning = { broadMatches: 150, walkWindow: 300 };

export type SearchPlan = "list" | "name" | "email" | "candidates" | "walk" | "window" | "window+walk";

type Probe = { ids: string[] } | { broad: true; itemsBroad: boolean };

async function probeSearch(db: Db, raw: string, cap: number): Promise<Probe & { plan: SearchPlan }> {
  const q = raw.trim();
  const like = likeOf(q);
  const number = /^#?(\d{1,9})$/.exec(q)?.[1];
  const words = q.split(/\s+/).filter(Boolean);
  if (/^#\d{1,9}$/.test(q)) {
    // "#1234" is an order name: nothing else has that shape, and the unique index answers it.
    const rows = await db.$queryRaw<{ id: string }[]>`SELECT id FROM orders WHERE name = ${q}`;
    return { ids: rows.map((r) => r.id), plan: "name" };
  }
  if (/^[^\s@]+@[^\s@]+$/.test(q)) {
    // A whole email address: the customer's orders (nothing else holds an "@").
    const rows = await db.$queryRaw<{ id: string }[]>`SELECT id FROM orders WHERE email ILIKE ${like} LIMIT ${cap + 1}`;
    return rows.length > cap ? { broad: true, itemsBroad: false, plan: "walk" } : { ids: rows.map((r) => r.id), plan: "email" };
  }
  // Items first: when they alone pass the cap, the walk tests orders one by one (see the header).
  const parts: Prisma.Sql[] = [
    P.sql`SELECT order_id AS id, true AS item FROM order_items WHERE title ILIKE ${like} OR sku ILIKE ${like}`,
    P.sql`SELECT id, false FROM orders WHERE email ILIKE ${like}`,
    P.sql`SELECT order_id, false FROM order_items WHERE tracking_number = ${q}`,
  ];
  if (number) parts.push(P.sql`SELECT id, false FROM orders WHERE name = ${`#${number}`}`);
  if (words.length >= 2) {
    parts.push(
      P.sql`SELECT o.id, false FROM orders o JOIN users u ON u.id = o.user_id WHERE u.first_name ILIKE ${likeOf(words[0])} AND u.last_name ILIKE ${likeOf(words.slice(1).join(" "))}`,
    );
  } else {
    parts.push(P.sql`SELECT o.id, false FROM orders o JOIN users u ON u.id = o.user_id WHERE u.first_name ILIKE ${like} OR u.last_name ILIKE ${like}`);
  }
  // UNION ALL streams, so the LIMIT stops a broad search early (UNION would collect every match first).
  const rows = await db.$queryRaw<{ id: string; item: boolean }[]>`SELECT id, item FROM (${P.join(parts, " UNION ALL ")}) s LIMIT ${cap + 1}`;
  if (rows.length <= cap) return { ids: [...new Set(rows.map((r) => r.id))], plan: "candidates" };
  const itemsBroad = rows.every((r) => r.item);
  return { broad: true, itemsBroad, plan: itemsBroad ? "window" : "walk" };
}

type Page = { rows: SummaryRow[]; plan: SearchPlan };

async function pageQuery(db: Db, where: Prisma.Sql[], field: SortField, dir: Direction, take: number): Promise<SummaryRow[]> {
  const order = orderSql(field, dir);
  return db.$queryRaw<SummaryRow[]>(withSummaries(P.sql`SELECT o.* FROM orders o ${whereSql(where)} ORDER BY ${order} LIMIT ${take}`, order));
}

/**
 * A broad item search: the first `window` orders passing the filters (after the cursor), each tested
 * through its items; if they hold fewer than `take` matches and more orders follow, the walk goes on
 * after the window's last order with the hashed test. Same rows and order as one walk. One statement:
 * the walk after the window runs only when the window's matches fall short (a one-time condition, so
 * its items are not even hashed otherwise), and starts at the window's last order (an InitPlan, NULL
 * when the window saw every order left, which ends that walk at once).
 */
async function windowedWalk(db: Db, q: string, filters: Prisma.Sql[], field: SortField, dir: Direction, after: Keyset | null, take: number, window: number): Promise<Page> {
  const order = orderSql(field, dir);
  const scope = after ? [...filters, afterSql(field, dir, after)] : filters;
  const column = P.raw(`o.${field}`);
  const edge = (c: Prisma.Sql) => P.sql`(SELECT ${c} FROM orders o ${whereSql(scope)} ORDER BY ${order} OFFSET ${window - 1} LIMIT 1)`;
  // The plain comparison on the sort column is what the index can start from (the row comparison
  // with the InitPlans' values is only a filter); the cursor's own bound stays for the same reason.
  const pastEdge = P.sql`${column} ${P.raw(dir === "desc" ? "<=" : ">=")} ${edge(column)} AND (${column}, o.id) ${P.raw(dir === "desc" ? "<" : ">")} (${edge(column)}, ${edge(P.sql`o.id`)})`;
  const inner = P.sql`WITH hits AS MATERIALIZED (
        SELECT o.*, true AS in_window FROM (SELECT o.* FROM orders o ${whereSql(scope)} ORDER BY ${order} LIMIT ${window}) o
        WHERE ${searchSql(q, true)} ORDER BY ${order} LIMIT ${take})
    SELECT o.* FROM (
      SELECT * FROM hits
      UNION ALL
      (SELECT o.*, false FROM orders o WHERE (SELECT count(*) FROM hits) < ${take} AND ${P.join([pastEdge, searchSql(q, false), ...scope], " AND ")} ORDER BY ${order} LIMIT ${take})
    ) o ORDER BY ${order} LIMIT ${take}`;
  const rows = await db.$queryRaw<(SummaryRow & { in_window: boolean })[]>(withSummaries(inner, order, P.sql`o.in_window,`));
  return { rows, plan: rows.every((r) => r.in_window) ? "window" : "window+walk" };
}

/** The list, and which plan answered it (the benchmark reports it per kind of search). */
export async function searchAdminOrders(db: Db, query: AdminOrderQuery, tuning: SearchTuning = SEARCH_TUNING) {
  const sort = query.sort ?? "created_at_desc";
  const limit = Math.max(1, Math.min(100, query.limit ?? 25));
  const { field, dir } = parseSort(sort);
  const after = decodeCursor(sort, field, query.cursor);
  const take = limit + 1;
  const filters = filterSql(query);
  const keyset = after ? [afterSql(field, dir, after)] : [];

  let page: Page;
  const q = query.q?.trim();
  if (!q) {
    page = { rows: await pageQuery(db, [...filters, ...keyset], field, dir, take), plan: "list" };
  } else {
    const probe = await probeSearch(db, q, tuning.broadMatches);
    if ("ids" in probe) {
      page = { rows: probe.ids.length ? await pageQuery(db, [P.sql`o.id = ANY(${probe.ids})`, ...filters, ...keyset], field, dir, take) : [], plan: probe.plan };
    } else if (probe.itemsBroad && tuning.walkWindow > 0) {
      page = await windowedWalk(db, q, filters, field, dir, after, take, tuning.walkWindow);
    } else {
      page = { rows: await pageQuery(db, [searchSql(q, false), ...filters, ...keyset], field, dir, take), plan: "walk" };
    }
  }

  const rows = page.rows.slice(0, limit);
  const last = rows[rows.length - 1];
  return {
    plan: page.plan,
    items: rows.map((r) => toSummary(fromRow(r))),
    nextCursor: page.rows.length > limit && last ? encodeCursor(sort, cursorText(keyOf(field, last)), last.id) : null,
  };
}

export async function listAdminOrders(db: Db, query: AdminOrderQuery, tuning: SearchTuning = SEARCH_TUNING) {
  const { items, nextCursor } = await searchAdminOrders(db, query, tuning);
  return { items, nextCursor };
}
