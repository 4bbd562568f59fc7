/** The vendor's stores (issue 17); the same page serves admins at /app/vendors/:id/stores (app.vendors_.$id_.stores.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { VendorStoresScreen } from "~/components/vendor/screens";
import { vendorStoresLoader } from "~/lib/vendor-pages.server";

export const loader = (args: LoaderFunctionArgs) => vendorStoresLoader(args);
export default VendorStoresScreen;
