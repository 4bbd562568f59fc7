/** inventory_levels/update → the product's variants and aggregates in the read model (HMAC-verified, once per webhook id). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { getAppContext } from "~/context.server";
import { firstDelivery } from "~/services/shopify-webhooks.server";
import { applyInventoryWebhook, releaseWebhookDelivery } from "~/services/catalog-sync.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await authenticate.webhook(request); // 401 on a bad HMAC
  if (topic !== "INVENTORY_LEVELS_UPDATE") return new Response(`Unhandled topic ${topic}`, { status: 404 });
  const ctx = getAppContext();
  const webhookId = request.headers.get("x-shopify-webhook-id");
  if (!(await firstDelivery(ctx.db, { webhookId, topic, shop }))) return new Response();
  try {
    const outcome = await applyInventoryWebhook(ctx, (payload ?? {}) as Record<string, unknown>);
    ctx.log.info({ topic, shop, webhookId, outcome }, "inventory webhook handled");
  } catch (e) {
    await releaseWebhookDelivery(ctx.db, webhookId);
    ctx.log.error({ err: e, topic, shop, webhookId }, "inventory webhook failed");
    return new Response("Webhook processing failed", { status: 500 });
  }
  return new Response();
};
