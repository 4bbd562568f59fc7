/** An admin's view of a vendor's home (vendors.manage), with the commission rate edit: the vendor's own page (app.vendor.tsx) for the vendor of the URL. */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { vizLinks } from "~/components/admin/VizChart";
import { VendorHomeScreen } from "~/components/vendor/screens";
import { vendorAdminAction, vendorHomeLoader } from "~/lib/vendor-pages.server";

export const links: LinksFunction = () => vizLinks;
export const loader = (args: LoaderFunctionArgs) => vendorHomeLoader(args);
export const action = (args: ActionFunctionArgs) => vendorAdminAction(args);
export default VendorHomeScreen;
