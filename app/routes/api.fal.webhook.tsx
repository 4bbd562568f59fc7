/** fal.ai's completion webhooks (outside the authenticated API: the URL carries a per-request HMAC token). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "~/context.server";
import { handleFalWebhook } from "~/services/image-ai/webhook.server";

export const action = ({ request }: ActionFunctionArgs) => handleFalWebhook(request, getAppContext());
export const loader = (_args: LoaderFunctionArgs) => new Response("POST only", { status: 405 });
