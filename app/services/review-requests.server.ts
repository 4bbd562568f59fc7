/**
 * Review requests: once every item of an order is delivered, the `reviews.request` job emails the
 * buyer a link to review what they received (`/review?token=…`, the storefront's page).
 *
 * The token is `<invitation id>.<32 random bytes>.<HMAC-SHA256 of both>` (base64url). Only its
 * SHA-256 is stored (ReviewInvitation.token_hash), so a database leak does not leak working links;
 * the signature lets the server refuse forged or mangled tokens before touching the database.
 * Links are valid for 60 days; one invitation per order (the admin "send again" makes a new one).
 *
 * When an order becomes fully delivered: the order webhook (a fulfilment whose shipment_status is
 * "delivered" moves its items to delivered in the read model) calls
 * `enqueueReviewRequestIfDelivered`; anything else that marks items delivered should call it too.
 * Admins can (re)send the email for a delivered order (POST /product-reviews/admin/orders/{id}/request-reviews).
 */
import crypto from "node:crypto";
import type { Order, OrderItem, OrderItemStatus } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { conflictError as conflict, notFoundError as notFound, unprocessableError } from "~/lib/domain-errors";
import { REVIEW_INVITATION_TTL_DAYS } from "~/contract/reviews";
import { reviewAuthorName } from "~/lib/review-author";
import { toProductGid } from "~/lib/gid";
import { queueEmail, type OutgoingEmail } from "./email.server";
import { appBaseUrl } from "./search/notifications.server";
import { createOrderReview, type ReviewWrite, type ReviewsCtx } from "./reviews.server";
import { hashToken } from "./tokens.server";

export const REVIEWS_REQUEST_QUEUE = "reviews.request";
export const INVALID_REVIEW_LINK = "This review link is not valid";
export const EXPIRED_REVIEW_LINK = "This review link has expired";

const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------
// Tokens

/** APP_SECRET: required in production, generated once in DATA_DIR in local mode. */
function signingSecret(config: AppContext["config"]): string {
  return config.APP_SECRET;
}

const sign = (secret: string, payload: string) => crypto.createHmac("sha256", secret).update(`review-invitation:${payload}`).digest("base64url");

export function makeReviewToken(config: AppContext["config"], invitationId: string): string {
  const payload = `${invitationId}.${crypto.randomBytes(32).toString("base64url")}`;
  return `${payload}.${sign(signingSecret(config), payload)}`;
}

/** The invitation id of a well-formed, correctly signed token, else null. */
export function verifyReviewTokenSignature(config: AppContext["config"], token: string): string | null {
  const parts = token.trim().split(".");
  if (parts.length !== 3 || !parts.every(Boolean)) return null;
  const [id, random] = parts;
  const expected = Buffer.from(sign(signingSecret(config), `${id}.${random}`));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  return id;
}

/** The invitation of a token: 404 when it is not ours, 422 when it expired. */
async function resolveInvitation(ctx: Pick<AppContext, "db" | "config">, token: string) {
  const id = verifyReviewTokenSignature(ctx.config, token);
  if (!id) throw notFound(INVALID_REVIEW_LINK);
  const invitation = await ctx.db.reviewInvitation.findUnique({
    where: { token_hash: hashToken(token.trim()) },
    include: { order: { include: { items: true } }, user: { select: { id: true, first_name: true, email: true } } },
  });
  if (!invitation || invitation.id !== id) throw notFound(INVALID_REVIEW_LINK);
  if (invitation.expires_at.getTime() <= Date.now()) throw unprocessableError(`${EXPIRED_REVIEW_LINK}: links are valid for ${REVIEW_INVITATION_TTL_DAYS} days`);
  return invitation;
}

// ---------------------------------------------------------------------------------------------
// Which products an order can review

/** Every item still in the order (not cancelled) is delivered (or was returned after delivery), and at least one is delivered. */
export function isFullyDelivered(items: Pick<OrderItem, "status">[]): boolean {
  const live = items.filter((i) => i.status !== "cancelled");
  const done: OrderItemStatus[] = ["delivered", "returned"];
  return live.length > 0 && live.every((i) => done.includes(i.status)) && live.some((i) => i.status === "delivered");
}

/** The delivered products of an order (one entry per product), with catalogue details, in line order. */
async function deliveredProducts(db: Db, items: OrderItem[]) {
  const delivered = items.filter((i) => i.status === "delivered" && i.product_id);
  const ids = [...new Set(delivered.map((i) => i.product_id!))];
  const products = new Map((await db.product.findMany({ where: { id: { in: ids } }, select: { id: true, title: true, handle: true, featuredImageUrl: true } })).map((p) => [p.id, p]));
  const seen = new Set<string>();
  const out: { product_id: string; title: string; handle: string; image_url: string | null; variant_title: string | null }[] = [];
  for (const i of delivered.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id))) {
    const p = products.get(i.product_id!);
    if (!p || seen.has(p.id)) continue;
    seen.add(p.id);
    out.push({ product_id: p.id, title: p.title, handle: p.handle, image_url: i.image_url ?? p.featuredImageUrl, variant_title: i.variant_title });
  }
  return out;
}

async function reviewedProductIds(db: Db, orderId: string) {
  return new Set((await db.review.findMany({ where: { shopify_order_id: orderId }, select: { product_id: true } })).map((r) => r.product_id));
}

// ---------------------------------------------------------------------------------------------
// Review by token

export async function reviewableByToken(ctx: Pick<AppContext, "db" | "config">, token: string, productId?: string) {
  const invitation = await resolveInvitation(ctx, token);
  const products = await deliveredProducts(ctx.db, invitation.order.items);
  const reviewed = await reviewedProductIds(ctx.db, invitation.order_id);
  const list = products.map((p) => ({ ...p, reviewed: reviewed.has(p.product_id) }));
  const wanted = productId ? toProductGid(productId) : null;
  return {
    order: { id: invitation.order.id, name: invitation.order.name, created_at: invitation.order.created_at },
    author_name: reviewAuthorName(invitation.user ?? { email: invitation.email }),
    expires_at: invitation.expires_at,
    products: list,
    reviewable: wanted ? list.some((p) => p.product_id === wanted && !p.reviewed) : list.some((p) => !p.reviewed),
  };
}

export async function createReviewByToken(ctx: ReviewsCtx & Pick<AppContext, "config">, input: ReviewWrite & { token: string }) {
  const invitation = await resolveInvitation(ctx, input.token);
  const productId = toProductGid(input.product_id);
  const products = await deliveredProducts(ctx.db, invitation.order.items);
  if (!products.some((p) => p.product_id === productId)) throw notFound(`This product is not a delivered item of order ${invitation.order.name}`);
  const review = await createOrderReview(ctx, {
    ...input,
    product_id: productId,
    order: { id: invitation.order.id, name: invitation.order.name },
    author: invitation.user ? { id: invitation.user.id, first_name: invitation.user.first_name, email: invitation.user.email ?? invitation.email } : { id: null, first_name: null, email: invitation.email },
  });
  // The link is used up once every delivered product has its review.
  const reviewed = await reviewedProductIds(ctx.db, invitation.order_id);
  if (!invitation.used_at && products.every((p) => reviewed.has(p.product_id))) {
    await ctx.db.reviewInvitation.update({ where: { id: invitation.id }, data: { used_at: new Date() } });
  }
  return review;
}

// ---------------------------------------------------------------------------------------------
// The job and its triggers

type OrderWithItems = Order & { items: OrderItem[] };

/** After an order changed: queue the review request when it is now fully delivered and none was sent. */
export async function enqueueReviewRequestIfDelivered(ctx: Pick<AppContext, "db" | "queue">, orderId: string): Promise<{ id: string } | null> {
  const order = await ctx.db.order.findUnique({ where: { id: orderId }, include: { items: { select: { status: true } } } });
  if (!order || order.status === "cancelled" || !order.email || !isFullyDelivered(order.items)) return null;
  if (await ctx.db.reviewInvitation.findFirst({ where: { order_id: orderId }, select: { id: true } })) return null;
  return ctx.queue.enqueue(REVIEWS_REQUEST_QUEUE, { orderId }, { dedupeKey: `${REVIEWS_REQUEST_QUEUE}:${orderId}` });
}

/** Admin: send the request (again) for an order with delivered items. */
export async function requestReviewsForOrder(ctx: Pick<AppContext, "db" | "queue">, orderId: string) {
  const order = await ctx.db.order.findUnique({ where: { id: orderId }, include: { items: { select: { status: true } } } });
  if (!order) throw notFound("Order not found");
  if (order.status === "cancelled") throw conflict(`Order ${order.name} is cancelled`);
  if (!order.email) throw conflict(`Order ${order.name} has no email address to send the request to`);
  if (!order.items.some((i) => i.status === "delivered")) throw conflict(`Order ${order.name} has no delivered items yet`);
  const job = await ctx.queue.enqueue(REVIEWS_REQUEST_QUEUE, { orderId, force: true });
  return { jobId: job.id, orderId };
}

export interface ReviewRequestResult {
  status: "sent" | "already-sent" | "skipped";
  reason?: string;
  invitationId?: string;
  products?: number;
}

/** The `reviews.request` job: creates the invitation and queues the email (idempotent unless `force`). */
export async function runReviewRequest(ctx: Pick<AppContext, "db" | "queue" | "config">, payload: { orderId: string; force?: boolean }): Promise<ReviewRequestResult> {
  const order: OrderWithItems | null = await ctx.db.order.findUnique({ where: { id: payload.orderId }, include: { items: true } });
  if (!order) return { status: "skipped", reason: "order not found" };
  if (order.status === "cancelled") return { status: "skipped", reason: "order cancelled" };
  if (!order.email) return { status: "skipped", reason: "order has no email" };
  if (!payload.force && !isFullyDelivered(order.items)) return { status: "skipped", reason: "not fully delivered" };
  if (!payload.force && (await ctx.db.reviewInvitation.findFirst({ where: { order_id: order.id }, select: { id: true } }))) return { status: "already-sent" };
  const reviewed = await reviewedProductIds(ctx.db, order.id);
  const products = (await deliveredProducts(ctx.db, order.items)).filter((p) => !reviewed.has(p.product_id));
  if (!products.length) return { status: "skipped", reason: "nothing left to review" };

  const user = order.user_id ? await ctx.db.user.findUnique({ where: { id: order.user_id }, select: { first_name: true } }) : null;
  const id = crypto.randomUUID();
  const token = makeReviewToken(ctx.config, id);
  const email = order.email;
  // The invitation and its email in one transaction: a run killed in between would otherwise
  // leave an invitation that makes the next run answer "already-sent" with no email ever sent.
  await ctx.db.$transaction(async (tx) => {
    await tx.reviewInvitation.create({
      data: { id, token_hash: hashToken(token), order_id: order.id, user_id: order.user_id, email, expires_at: new Date(Date.now() + REVIEW_INVITATION_TTL_DAYS * DAY_MS) },
    });
    await queueEmail(ctx, reviewRequestEmail({ to: email, firstName: user?.first_name ?? null, orderName: order.name, products, link: reviewLink(ctx.config, token) }), tx);
  });
  return { status: "sent", invitationId: id, products: products.length };
}

export const reviewLink = (config: AppContext["config"], token: string) => `${appBaseUrl(config)}/review?token=${encodeURIComponent(token)}`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function reviewRequestEmail(input: { to: string; firstName: string | null; orderName: string; products: { title: string }[]; link: string }): OutgoingEmail {
  const hello = input.firstName ? `Hello ${input.firstName},` : "Hello,";
  const titles = input.products.map((p) => p.title);
  const text = [
    hello,
    "",
    `Your order ${input.orderName} has been delivered. How do you like it? Tell other shoppers in a review:`,
    "",
    ...titles.map((t) => `- ${t}`),
    "",
    `Write your review: ${input.link}`,
    "",
    `This link works for ${REVIEW_INVITATION_TTL_DAYS} days.`,
  ].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>${escapeHtml(hello)}</p>` +
    `<p>Your order <strong>${escapeHtml(input.orderName)}</strong> has been delivered. How do you like it? Tell other shoppers in a review:</p>` +
    `<ul>${titles.map((t) => `<li>${escapeHtml(t)}</li>`).join("")}</ul>` +
    `<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 18px;background:#111;color:#fff;border-radius:6px;text-decoration:none">Write your review</a></p>` +
    `<p style="font-size:12px;color:#6d7175">This link works for ${REVIEW_INVITATION_TTL_DAYS} days.</p></body></html>`;
  return { to: input.to, subject: `How is your order ${input.orderName}? Write a review`, html, text, kind: "review_request" };
}
