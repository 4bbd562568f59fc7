/** Every /api/* call goes through the contract router (app/api). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleApiRequest } from "~/api/index.server";
import { getAppContext } from "~/context.server";

const clientIp = (context: unknown) => (context as { clientIp?: string } | undefined)?.clientIp;

export const loader = ({ request, context }: LoaderFunctionArgs) => handleApiRequest(request, getAppContext(), { clientIp: clientIp(context) });
export const action = ({ request, context }: ActionFunctionArgs) => handleApiRequest(request, getAppContext(), { clientIp: clientIp(context) });
