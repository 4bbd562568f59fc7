/**
 * A vendor's socials content (issue 19): its own products' posts only
 * (app/components/admin/SocialsContentScreen.tsx; the service scopes by the vendor).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { SocialsContentScreen } from "~/components/admin/SocialsContentScreen";
import { loadSocialsPage, socialsAction, vendorSocialsScope } from "~/lib/socials-pages.server";

export const loader = async ({ request }: LoaderFunctionArgs) => loadSocialsPage(await vendorSocialsScope(request), { request });
export const action = async ({ request }: ActionFunctionArgs) => socialsAction(await vendorSocialsScope(request), request);
export default SocialsContentScreen;
