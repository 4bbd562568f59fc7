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

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await authenticate.webhook(request);
  const ctx = getAppContext();
  if (!(await firstDelivery(ctx.db, { webhookId: request.headers.get("x-shopify-webhook-id"), topic, shop }))) return new Response();
  const body = (payload ?? {}) as Parameters<typeof handleCustomerDataRequest>[2];
  const deps = { db: ctx.db, privateStorage: ctx.privateStorage, queue: ctx.queue, log: ctx.log };
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
  ctx.log.info({ topic, shop }, "privacy webhook handled");
  return new Response();
};
