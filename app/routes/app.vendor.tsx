/**
 * The vendor's home (issue 17): KPIs over a range with the previous period, a daily sales / views
 * / try-ons chart and the top products; the range is in the URL as on the admin's Analytics. The
 * same page serves admins at /app/vendors/:id (app.vendors_.$id.tsx).
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { vizLinks } from "~/components/admin/VizChart";
import { VendorHomeScreen } from "~/components/vendor/screens";
import { vendorAdminAction, vendorHomeLoader } from "~/lib/vendor-pages.server";

export const links: LinksFunction = () => vizLinks;
export const loader = (args: LoaderFunctionArgs) => vendorHomeLoader(args);
/** Admins only (the commission rate); a vendor is answered with a refusal. */
export const action = (args: ActionFunctionArgs) => vendorAdminAction(args);
export default VendorHomeScreen;
