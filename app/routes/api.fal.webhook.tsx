/**
 * fal.ai's completion webhooks (outside the authenticated API: the URL carries a per-request HMAC
 * token; fal's ED25519 signature is checked over the raw body when FAL_WEBHOOK_VERIFY_SIGNATURE is on).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "~/context.server";
import { handleFalWebhook } from "~/services/image-ai/webhook.server";

export async function action({ request }: ActionFunctionArgs) {
  // The raw text, not request.json(): fal signs the exact bytes it sent.
  const rawBody = await request.text();
  return handleFalWebhook(request, getAppContext(), { rawBody });
}
export const loader = (_args: LoaderFunctionArgs) => new Response("POST only", { status: 405 });
