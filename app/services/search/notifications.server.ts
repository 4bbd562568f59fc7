/**
 * Saved-search notifications: a shopper asks to be emailed when new products match a search
 * (POST /users/notification-requests/search), and the `search-notifications.check` job emails
 * the products published since the request was last checked, with an unsubscribe link.
 *
 * Storage (NotificationRequest, kind "search"): `search_id` is the search id of POST /search;
 * `search_query` is the text left after parsing and `search_filters` the applied filters (the job
 * runs them without parsing again, so the saved search's meaning does not drift); `checked_until` is
 * the time up to which published products have been considered, `sent_at` the last email's time.
 * A request stays active after an email.
 *
 * The job runs hourly while active search requests exist, and is also enqueued right after a
 * catalogue sync and after scheduled drops are published (jobs/handlers.server.ts).
 */
import { appBaseUrl } from "~/lib/app-url";
import type { NotificationRequest, Prisma, User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import type { JobQueue } from "~/jobs/queue.server";
import { invalid as badRequest, notFoundError as notFound, unprocessableError as unprocessable } from "~/lib/domain-errors";
import { gidTail } from "~/lib/gid";
import { queueEmail, type OutgoingEmail } from "../email.server";
import { rankedPage } from "./engine.server";
import { canonicalFilters, searchIdOf, type SearchFilters } from "~/lib/search-filters";
import { planQueries, planSearch, type SearchPlan } from "./search.server";
import { getSearchVocabulary } from "./vocabulary.server";
import { getWordVectors } from "./word-vectors.server";

export const SEARCH_NOTIFICATIONS_QUEUE = "search-notifications.check";
/** How often the job runs while there are active search requests. */
export const SEARCH_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** Products listed in one email at most. */
export const SEARCH_EMAIL_MAX_PRODUCTS = 12;
const BATCH = 200;

export const NO_EMAIL_FOR_NOTIFICATIONS = "Add an email address to your account to be told about new products for this search";
export const SEARCH_ID_MISMATCH = "searchId does not match the query and filters: send the searchId that POST /search answered for them";
export const SEARCH_NOTIFICATION_NOT_FOUND = "You have no notifications for this search";
export const UNSUBSCRIBE_LINK_INVALID = "This unsubscribe link is not valid";

interface SavedSearch {
  text: string;
  filters: SearchFilters;
}

/** The saved search of a request (filters stored by another version are read leniently). */
export function savedSearchOf(r: Pick<NotificationRequest, "search_query" | "search_filters">): SavedSearch {
  const raw = r.search_filters;
  const filters = raw && typeof raw === "object" && !Array.isArray(raw) ? canonicalFilters(raw as SearchFilters) : {};
  return { text: r.search_query ?? "", filters };
}

/** Products published up to this time have been considered for the request. */
const checkedUntil = (r: Pick<NotificationRequest, "checked_until" | "created_at">) => r.checked_until ?? r.created_at;

function toNotification(r: NotificationRequest) {
  const saved = savedSearchOf(r);
  return {
    id: r.id,
    kind: "search" as const,
    searchId: r.search_id ?? "",
    query: saved.text,
    filters: saved.filters,
    email: r.email,
    status: r.status,
    checkedUntil: checkedUntil(r),
    created_at: r.created_at,
  };
}

/**
 * The (text, filters) pair behind a search id: the query as POST /search would parse it, or the
 * text and filters as they are (a client that sends back `query.text` and `filters.applied`).
 */
async function savedSearchFor(db: Db, searchId: string, query: string, filters: SearchFilters | undefined): Promise<{ text: string; filters: SearchFilters }> {
  const direct = canonicalFilters(filters);
  if (searchIdOf(query, direct) === searchId) return { text: query.trim().replace(/\s+/g, " "), filters: direct };
  const wv = getWordVectors();
  const vocab = await getSearchVocabulary(db, { wordVectors: wv });
  for (const [skipAutoParsing, parseTypes] of [
    [false, true],
    [false, false],
    [true, true],
  ]) {
    const plan = planSearch(vocab, wv, { query, filters, skipAutoParsing }, { parseTypes });
    if (plan.searchId === searchId) return { text: plan.text, filters: plan.applied };
  }
  throw badRequest(SEARCH_ID_MISMATCH);
}

export async function createSearchNotification(
  ctx: Pick<AppContext, "db" | "queue">,
  user: Pick<User, "id" | "email">,
  body: { searchId: string; query: string; filters?: SearchFilters },
) {
  if (!user.email) throw unprocessable(NO_EMAIL_FOR_NOTIFICATIONS);
  const saved = await savedSearchFor(ctx.db, body.searchId, body.query, body.filters);
  const now = new Date();
  const existing = await ctx.db.notificationRequest.findFirst({
    where: { kind: "search", user_id: user.id, search_id: body.searchId },
    orderBy: { created_at: "asc" },
  });
  let row: NotificationRequest;
  if (existing) {
    // Idempotent: the same request again answers the existing one (re-activated if it was stopped,
    // from now on: products published while it was off are not sent).
    row =
      existing.status === "active" && existing.email === user.email
        ? existing
        : await ctx.db.notificationRequest.update({
            where: { id: existing.id },
            data: { status: "active", email: user.email, ...(existing.status === "active" ? {} : { checked_until: now }) },
          });
  } else {
    row = await ctx.db.notificationRequest.create({
      data: {
        kind: "search",
        user_id: user.id,
        email: user.email,
        search_id: body.searchId,
        search_query: saved.text,
        search_filters: saved.filters as Prisma.InputJsonObject,
        status: "active",
        checked_until: now,
      },
    });
  }
  await scheduleSearchNotificationCheck(ctx);
  return toNotification(row);
}

export async function deleteSearchNotification(db: Db, user: Pick<User, "id">, searchId: string) {
  const r = await db.notificationRequest.deleteMany({ where: { kind: "search", user_id: user.id, search_id: searchId } });
  if (r.count === 0) throw notFound(SEARCH_NOTIFICATION_NOT_FOUND);
  return { ok: true as const, searchId };
}

const KIND_TEXT: Record<NotificationRequest["kind"], string> = {
  search: "new products for your saved search",
  back_in_stock: "back-in-stock alerts for this product",
  drop: "news about this drop",
};

/** The unsubscribe link of an email: stops that request (any kind). */
export async function unsubscribeNotification(db: Db, token: string) {
  const row = await db.notificationRequest.findUnique({ where: { unsubscribe_token: token } });
  if (!row) throw notFound(UNSUBSCRIBE_LINK_INVALID);
  if (row.status !== "unsubscribed") await db.notificationRequest.update({ where: { id: row.id }, data: { status: "unsubscribed" } });
  return { ok: true as const, kind: row.kind, status: "unsubscribed" as const, message: `You will no longer get emails with ${KIND_TEXT[row.kind]}.` };
}

// --- the job --------------------------------------------------------------------------------------

const hourSlot = (d: Date) => new Date(Math.floor(d.getTime() / SEARCH_CHECK_INTERVAL_MS) * SEARCH_CHECK_INTERVAL_MS);

/** Makes sure the periodic check will run (at the next interval boundary). */
export async function scheduleSearchNotificationCheck(ctx: { queue: JobQueue }, now = new Date()) {
  const runAt = new Date(hourSlot(now).getTime() + SEARCH_CHECK_INTERVAL_MS);
  await ctx.queue.enqueue(SEARCH_NOTIFICATIONS_QUEUE, { reason: "scheduled" }, { runAt, dedupeKey: `${SEARCH_NOTIFICATIONS_QUEUE}:${runAt.toISOString()}` });
}

/** Runs the check soon (after products were published), when anyone has a saved search. */
export async function enqueueSearchNotificationCheck(ctx: Pick<AppContext, "db" | "queue">, reason: string) {
  const any = await ctx.db.notificationRequest.findFirst({ where: { kind: "search", status: "active" }, select: { id: true } });
  if (!any) return null;
  return ctx.queue.enqueue(SEARCH_NOTIFICATIONS_QUEUE, { reason }, { dedupeKey: `${SEARCH_NOTIFICATIONS_QUEUE}:soon` });
}

export { appBaseUrl };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function searchMatchesEmail(input: {
  to: string;
  searchText: string;
  products: { id: string; title: string; handle: string; price: string; currencyCode: string }[];
  more: boolean;
  baseUrl: string;
  unsubscribeToken: string;
}): OutgoingEmail {
  const what = input.searchText ? `“${input.searchText}”` : "your saved search";
  const n = input.products.length;
  const subject = `${n}${input.more ? "+" : ""} new ${n === 1 && !input.more ? "product matches" : "products match"} ${what}`;
  const link = (p: { id: string; handle: string }) => `${input.baseUrl}/products/${gidTail(p.id)}/${encodeURIComponent(p.handle)}`;
  const price = (p: { price: string; currencyCode: string }) => {
    try {
      return new Intl.NumberFormat("en", { style: "currency", currency: p.currencyCode }).format(Number(p.price));
    } catch {
      return `${p.price} ${p.currencyCode}`;
    }
  };
  const searchLink = `${input.baseUrl}/?search=${encodeURIComponent(input.searchText)}`;
  const unsubscribe = `${input.baseUrl}/api/notifications/unsubscribe/${encodeURIComponent(input.unsubscribeToken)}`;
  const text = [
    "Hello,",
    "",
    `New products match ${what}:`,
    ...input.products.map((p) => `- ${p.title} (${price(p)}): ${link(p)}`),
    ...(input.more ? ["…and more."] : []),
    "",
    `See them all: ${searchLink}`,
    "",
    `Stop these emails: ${unsubscribe}`,
    "",
  ].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>Hello,</p><p>New products match <strong>${escapeHtml(what)}</strong>:</p><ul>` +
    input.products.map((p) => `<li><a href="${escapeHtml(link(p))}">${escapeHtml(p.title)}</a> — ${escapeHtml(price(p))}</li>`).join("") +
    `${input.more ? "<li>…and more</li>" : ""}</ul><p><a href="${escapeHtml(searchLink)}">See them all</a></p>` +
    `<p style="font-size:12px;color:#6d7175">You asked to be told about new products for this search. <a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p></body></html>`;
  return { to: input.to, subject, html, text, kind: "search_notification" };
}

/** Products of a saved search published in (since, until], newest first (at most `take`). */
async function newMatches(db: Db, plan: SearchPlan, since: Date, until: Date, take: number): Promise<string[]> {
  const { match, rank } = planQueries(plan, "all");
  const rows = await rankedPage(db, { ...match, filters: { ...match.filters, publishedAfter: since, publishedBefore: until } }, rank, "Newest", 0, take);
  return rows.map((r) => r.id);
}

export interface SearchCheckResult {
  checked: number;
  emailed: number;
}

/** The job: for each active search request, email the products published since its last check. */
export async function runSearchNotificationCheck(ctx: Pick<AppContext, "db" | "queue" | "config">, now = new Date(), progress?: (p: number) => Promise<void>): Promise<SearchCheckResult> {
  const wv = getWordVectors();
  const vocab = await getSearchVocabulary(ctx.db, { wordVectors: wv });
  const total = await ctx.db.notificationRequest.count({ where: { kind: "search", status: "active" } });
  const baseUrl = appBaseUrl(ctx.config);
  let checked = 0;
  let emailed = 0;
  let after: string | undefined;
  for (;;) {
    const batch = await ctx.db.notificationRequest.findMany({
      where: { kind: "search", status: "active", ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    if (batch.length === 0) break;
    after = batch[batch.length - 1].id;
    for (const r of batch) {
      const since = checkedUntil(r);
      if (since >= now) continue;
      const saved = savedSearchOf(r);
      const plan = planSearch(vocab, wv, { query: saved.text, filters: saved.filters, skipAutoParsing: true });
      const ids = await newMatches(ctx.db, plan, since, now, SEARCH_EMAIL_MAX_PRODUCTS + 1);
      let email: OutgoingEmail | null = null;
      if (ids.length) {
        const products = await ctx.db.product.findMany({
          where: { id: { in: ids.slice(0, SEARCH_EMAIL_MAX_PRODUCTS) } },
          select: { id: true, title: true, handle: true, priceMin: true, currencyCode: true, publishedAt: true },
        });
        const byId = new Map(products.map((p) => [p.id, p]));
        const listed = ids
          .slice(0, SEARCH_EMAIL_MAX_PRODUCTS)
          .map((id) => byId.get(id))
          .filter((p): p is NonNullable<typeof p> => !!p)
          .map((p) => ({ id: p.id, title: p.title, handle: p.handle, price: p.priceMin.toFixed(2), currencyCode: p.currencyCode }));
        email = searchMatchesEmail({ to: r.email, searchText: saved.text, products: listed, more: ids.length > SEARCH_EMAIL_MAX_PRODUCTS, baseUrl, unsubscribeToken: r.unsubscribe_token });
      }
      // Only if still active and not checked meanwhile by another run; the email goes with the
      // mark (one transaction), so a run killed in between neither loses it nor sends it twice.
      const sent = await ctx.db.$transaction(async (tx) => {
        const marked = await tx.notificationRequest.updateMany({
          where: { id: r.id, status: "active", checked_until: r.checked_until },
          data: { checked_until: now, ...(ids.length ? { sent_at: now } : {}) },
        });
        if (marked.count !== 1 || !email) return false;
        await queueEmail(ctx, email, tx);
        return true;
      });
      if (sent) emailed++;
      checked++;
      if (progress && total) await progress(Math.min(99, (checked / total) * 100));
    }
  }
  if (total > 0) await scheduleSearchNotificationCheck(ctx, now);
  return { checked, emailed };
}

