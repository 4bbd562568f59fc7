/** An admin's view of a vendor's ads (vendors.manage or ads.manage): the vendor's own page (app.vendor_.ads.tsx). */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { vizLinks } from "~/components/admin/VizChart";
import { VendorAdsScreen } from "~/components/vendor/ads-screens";
import { vendorAdsLoader } from "~/lib/vendor-ads-pages.server";

export const links: LinksFunction = () => vizLinks;
export const loader = (args: LoaderFunctionArgs) => vendorAdsLoader(args);
export default VendorAdsScreen;
