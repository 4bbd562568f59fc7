/**
 * returns/request, approve, decline, cancel, close, reopen, process → the app's Return and
 * ReturnRequest rows (HMAC-verified, once per webhook id; see app/services/returns/return-webhooks.server.ts).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { getAppContext } from "~/context.server";
import { firstDelivery } from "~/services/shopify-webhooks.server";
import { releaseWebhookDelivery } from "~/services/catalog-sync.server";
import { handleReturnWebhook, isReturnWebhookTopic, type ReturnWebhookPayload } from "~/services/returns/return-webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await authenticate.webhook(request); // 401 on a bad HMAC
  if (!isReturnWebhookTopic(topic)) return new Response(`Unhandled topic ${topic}`, { status: 404 });
  const ctx = getAppContext();
  const webhookId = request.headers.get("x-shopify-webhook-id");
  if (!(await firstDelivery(ctx.db, { webhookId, topic, shop }))) return new Response();
  const body = (payload ?? {}) as ReturnWebhookPayload;
  try {
    await handleReturnWebhook(ctx, topic, body);
  } catch (e) {
    // Not recorded as delivered: Shopify's retry gets another try.
    await releaseWebhookDelivery(ctx.db, webhookId);
    ctx.log.error({ err: e, topic, shop, webhookId }, "returns webhook failed");
    return new Response("Webhook processing failed", { status: 500 });
  }
  return new Response();
};
