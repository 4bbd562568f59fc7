/**
 * The vendor's payouts (issue 17): periods, net per period, CSV download
 * (app.vendor_.payouts_.csv.tsx). The same page serves admins at /app/vendors/:id/payouts
 * (app.vendors_.$id_.payouts.tsx), with "Mark paid".
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { vizLinks } from "~/components/admin/VizChart";
import { VendorPayoutsScreen } from "~/components/vendor/screens";
import { vendorPayoutsLoader } from "~/lib/vendor-pages.server";

export const links: LinksFunction = () => vizLinks;
export const loader = (args: LoaderFunctionArgs) => vendorPayoutsLoader(args);
export default VendorPayoutsScreen;
