/**
 * The vendor's ads (issues 17, 18): delivery KPIs and a daily chart over a range, the ads with their
 * status and figures, the vendor's ad requests and "New request". Admins see the same page at
 * /app/vendors/:id/ads (app.vendors_.$id_.ads.tsx).
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { vizLinks } from "~/components/admin/VizChart";
import { VendorAdsScreen } from "~/components/vendor/ads-screens";
import { vendorAdsLoader } from "~/lib/vendor-ads-pages.server";

export const links: LinksFunction = () => vizLinks;
export const loader = (args: LoaderFunctionArgs) => vendorAdsLoader(args);
export default VendorAdsScreen;
