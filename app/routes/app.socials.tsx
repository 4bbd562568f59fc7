/**
 * The team's socials content (issue 19): every vendor's posts, with a vendor filter
 * (app/components/admin/SocialsContentScreen.tsx; catalog.edit).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { SocialsContentScreen } from "~/components/admin/SocialsContentScreen";
import { loadSocialsPage, socialsAction, teamSocialsScope } from "~/lib/socials-pages.server";

export const loader = async ({ request }: LoaderFunctionArgs) => loadSocialsPage(await teamSocialsScope(request), { request });
export const action = async ({ request }: ActionFunctionArgs) => socialsAction(await teamSocialsScope(request), request);
export default SocialsContentScreen;
