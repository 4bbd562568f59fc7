/**
 * Filing an ad request (issue 18): products, uploaded images, features, brief, daily budget and
 * dates, checked with the API's body (field errors on the form). Admins of the ads team file for a
 * vendor at /app/vendors/:id/ads/requests/new.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { VendorAdRequestScreen } from "~/components/vendor/ads-screens";
import { vendorAdRequestNewAction, vendorAdRequestNewLoader } from "~/lib/vendor-ads-pages.server";

export const loader = (args: LoaderFunctionArgs) => vendorAdRequestNewLoader(args);
export const action = (args: ActionFunctionArgs) => vendorAdRequestNewAction(args);
export default VendorAdRequestScreen;
