/** An admin's view of one of a vendor's ads: the vendor's own page (app.vendor_.ads_.$adId.tsx); the moves are the ads team's (ads.manage). */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { vizLinks } from "~/components/admin/VizChart";
import { VendorAdScreen } from "~/components/vendor/ads-screens";
import { vendorAdAction, vendorAdLoader } from "~/lib/vendor-ads-pages.server";

export const links: LinksFunction = () => vizLinks;
export const loader = (args: LoaderFunctionArgs) => vendorAdLoader(args);
export const action = (args: ActionFunctionArgs) => vendorAdAction(args);
export default VendorAdScreen;
