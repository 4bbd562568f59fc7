/** An admin's view of a vendor's products and their performance (vendors.manage; read-only): the vendor's own page (app.vendor_.products.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { VendorProductsScreen } from "~/components/vendor/screens";
import { vendorProductsLoader } from "~/lib/vendor-pages.server";

export const loader = (args: LoaderFunctionArgs) => vendorProductsLoader(args);
export default VendorProductsScreen;
