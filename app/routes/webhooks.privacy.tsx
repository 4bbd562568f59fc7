/** Shopify's mandatory compliance webhooks (customers/data_request, customers/redact, shop/redact). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { getAppContext } from "~/context.server";
import {
  firstDelivery,
  handleCustomerDataRequest,
  handleCustomerRedact,
  handleShopRedact,
} from "~/services/shopify-webhooks.server";
import { releaseWebhookDelivery } from "~/services/catalog-sync.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await authenticate.webhook(request);
  const ctx = getAppContext();
  const webhookId = request.headers.get("x-shopify-webhook-id");
  if (!(await firstDelivery(ctx.db, { webhookId, topic, shop }))) return new Response();
  const body = (payload ?? {}) as Parameters<typeof handleCustomerDataRequest>[2];
  const deps = { db: ctx.db, privateStorage: ctx.privateStorage, queue: ctx.queue, log: ctx.log };
  try {
    switch (topic) {
      case "CUSTOMERS_DATA_REQUEST":
        await handleCustomerDataRequest(deps, shop, body);
        break;
      case "CUSTOMERS_REDACT":
        await handleCustomerRedact(deps, body);
        break;
      case "SHOP_REDACT":
        await handleShopRedact(deps, shop);
        break;
      default:
        return new Response(`Unhandled topic ${topic}`, { status: 404 });
    }
  } catch (e) {
    // Not done: forget the delivery, so Shopify's retry of it does the work instead of being skipped.
    await releaseWebhookDelivery(ctx.db, webhookId).catch(() => undefined);
    ctx.log.error({ err: e, topic, shop }, "privacy webhook failed");
    return new Response("The webhook could not be handled; retry later", { status: 500 });
  }
  ctx.log.info({ topic, shop }, "privacy webhook handled");
  return new Response();
};
