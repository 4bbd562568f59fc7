/** products/create, products/update, products/delete → the product read model (HMAC-verified, once per webhook id). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { getAppContext } from "~/context.server";
import { firstDelivery } from "~/services/shopify-webhooks.server";
import { applyProductWebhook, releaseWebhookDelivery } from "~/services/catalog-sync.server";

const TOPICS = new Set(["PRODUCTS_CREATE", "PRODUCTS_UPDATE", "PRODUCTS_DELETE"]);

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await authenticate.webhook(request); // 401 on a bad HMAC
  if (!TOPICS.has(topic)) return new Response(`Unhandled topic ${topic}`, { status: 404 });
  const ctx = getAppContext();
  const webhookId = request.headers.get("x-shopify-webhook-id");
  if (!(await firstDelivery(ctx.db, { webhookId, topic, shop }))) return new Response();
  try {
    const outcome = await applyProductWebhook(ctx, topic, (payload ?? {}) as Record<string, unknown>);
    ctx.log.info({ topic, shop, webhookId, outcome }, "product webhook handled");
  } catch (e) {
    await releaseWebhookDelivery(ctx.db, webhookId); // let Shopify's retry be processed
    ctx.log.error({ err: e, topic, shop, webhookId }, "product webhook failed");
    return new Response("Webhook processing failed", { status: 500 });
  }
  return new Response();
};
