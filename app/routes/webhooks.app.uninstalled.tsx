import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { getAppContext } from "~/context.server";
import { firstDelivery, handleAppUninstalled } from "~/services/shopify-webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic } = await authenticate.webhook(request); // verifies the HMAC, 401 otherwise
  const { db } = getAppContext();
  if (await firstDelivery(db, { webhookId: request.headers.get("x-shopify-webhook-id"), topic, shop })) await handleAppUninstalled(db, shop);
  return new Response();
};
