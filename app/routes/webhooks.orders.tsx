/** orders/create, orders/updated → Order / OrderItem rows and purchase events (HMAC-verified, once per webhook id). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { getAppContext } from "~/context.server";
import { firstDelivery } from "~/services/shopify-webhooks.server";
import { releaseWebhookDelivery } from "~/services/catalog-sync.server";
import { upsertOrderFromWebhook, type WebhookOrder } from "~/services/order-read-model.server";
import { enqueueReviewRequestIfDelivered } from "~/services/review-requests.server";

const TOPICS = new Set(["ORDERS_CREATE", "ORDERS_UPDATED"]);

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await authenticate.webhook(request); // 401 on a bad HMAC
  if (!TOPICS.has(topic)) return new Response(`Unhandled topic ${topic}`, { status: 404 });
  const ctx = getAppContext();
  const webhookId = request.headers.get("x-shopify-webhook-id");
  if (!(await firstDelivery(ctx.db, { webhookId, topic, shop }))) return new Response();
  const order = (payload ?? {}) as WebhookOrder;
  if (order.id === undefined || order.id === null) return new Response();
  try {
    const r = await upsertOrderFromWebhook(ctx.db, order);
    ctx.log.info({ topic, shop, webhookId, orderId: r.id, created: r.created }, "order webhook handled");
    // Every item delivered: ask the buyer for reviews (once per order). A failure here must not fail the webhook.
    await enqueueReviewRequestIfDelivered(ctx, r.id).catch((e) => ctx.log.error({ err: e, orderId: r.id }, "review request could not be queued"));
  } catch (e) {
    await releaseWebhookDelivery(ctx.db, webhookId);
    ctx.log.error({ err: e, topic, shop, webhookId }, "order webhook failed");
    return new Response("Webhook processing failed", { status: 500 });
  }
  return new Response();
};
