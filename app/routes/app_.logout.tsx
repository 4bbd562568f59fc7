import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getAppContext } from "~/context.server";
import { authenticateRequest, clearSessionCookie, isSecureRequest } from "~/api/auth.server";
import { logout } from "~/services/users.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const ctx = getAppContext();
  const auth = await authenticateRequest(ctx, request);
  await logout({ db: ctx.db, mode: ctx.config.APP_MODE }, auth.token);
  return redirect("/app/login", { headers: { "set-cookie": clearSessionCookie(isSecureRequest(request)) } });
};

export const loader = () => redirect("/app");
