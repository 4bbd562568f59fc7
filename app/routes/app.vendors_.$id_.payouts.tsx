/** An admin's view of a vendor's payouts (vendors.manage), with "Mark paid" on pending ones: the vendor's own page (app.vendor_.payouts.tsx). */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { vizLinks } from "~/components/admin/VizChart";
import { VendorPayoutsScreen } from "~/components/vendor/screens";
import { vendorAdminAction, vendorPayoutsLoader } from "~/lib/vendor-pages.server";

export const links: LinksFunction = () => vizLinks;
export const loader = (args: LoaderFunctionArgs) => vendorPayoutsLoader(args);
export const action = (args: ActionFunctionArgs) => vendorAdminAction(args);
export default VendorPayoutsScreen;
