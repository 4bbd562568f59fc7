/**
 * An admin's view of a vendor's products and their performance (vendors.manage), with the same
 * status change as the vendor's own page (app.vendor_.products.tsx; the API's PATCH
 * /vendors/{id}/products/{productId}/status).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { VendorProductsScreen } from "~/components/vendor/screens";
import { vendorProductsAction, vendorProductsLoader } from "~/lib/vendor-pages.server";

export const loader = (args: LoaderFunctionArgs) => vendorProductsLoader(args);
export const action = (args: ActionFunctionArgs) => vendorProductsAction(args);
export default VendorProductsScreen;
