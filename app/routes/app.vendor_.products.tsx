/**
 * The vendor's products with their performance and a status change (issue 17). The same page
 * serves admins, status change included, at /app/vendors/:id/products (app.vendors_.$id_.products.tsx).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { VendorProductsScreen } from "~/components/vendor/screens";
import { vendorProductsAction, vendorProductsLoader } from "~/lib/vendor-pages.server";

export const loader = (args: LoaderFunctionArgs) => vendorProductsLoader(args);
export const action = (args: ActionFunctionArgs) => vendorProductsAction(args);
export default VendorProductsScreen;
