/**
 * One of the vendor's ads (issue 18): creatives, headline and text, the timeline and feedback
 * thread; Approve or Send feedback when it is ready for review, Unpublish while live; its delivery.
 * Another vendor's ad is not found (404). Admins: /app/vendors/:id/ads/:adId.
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { vizLinks } from "~/components/admin/VizChart";
import { VendorAdScreen } from "~/components/vendor/ads-screens";
import { vendorAdAction, vendorAdLoader } from "~/lib/vendor-ads-pages.server";

export const links: LinksFunction = () => vizLinks;
export const loader = (args: LoaderFunctionArgs) => vendorAdLoader(args);
export const action = (args: ActionFunctionArgs) => vendorAdAction(args);
export default VendorAdScreen;
