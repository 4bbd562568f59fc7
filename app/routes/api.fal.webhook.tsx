/**
 * fal.ai's completion webhooks (outside the authenticated API: the URL carries a per-request HMAC
 * token; fal's ED25519 signature is checked over the raw body when FAL_WEBHOOK_VERIFY_SIGNATURE is on).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "~/context.server";
import { handleFalWebhook } from "~/services/image-ai/webhook.server";
import { MAX_JSON_BODY_BYTES, readText, refusingLargeBodies } from "~/lib/body-limit.server";

export async function action({ request }: ActionFunctionArgs) {
  // The raw text, not request.json(): fal signs the exact bytes it sent.
  // Read with a limit (anyone can post here): 413 before buffering more than that.
  const rawBody = await refusingLargeBodies(() => readText(request, MAX_JSON_BODY_BYTES));
  return handleFalWebhook(request, getAppContext(), { rawBody });
}
export const loader = (_args: LoaderFunctionArgs) => new Response("POST only", { status: 405 });
