/** An admin's view of a vendor's stores (vendors.manage): the vendor's own page (app.vendor_.stores.tsx), each store linked to its admin page. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { VendorStoresScreen } from "~/components/vendor/screens";
import { vendorStoresLoader } from "~/lib/vendor-pages.server";

export const loader = (args: LoaderFunctionArgs) => vendorStoresLoader(args);
export default VendorStoresScreen;
