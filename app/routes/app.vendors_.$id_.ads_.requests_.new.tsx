/** The ads team files an ad request for a vendor (ads.manage): the vendor's own form (app.vendor_.ads_.requests_.new.tsx). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { VendorAdRequestScreen } from "~/components/vendor/ads-screens";
import { vendorAdRequestNewAction, vendorAdRequestNewLoader } from "~/lib/vendor-ads-pages.server";

export const loader = (args: LoaderFunctionArgs) => vendorAdRequestNewLoader(args);
export const action = (args: ActionFunctionArgs) => vendorAdRequestNewAction(args);
export default VendorAdRequestScreen;
