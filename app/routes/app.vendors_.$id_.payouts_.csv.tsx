/** A vendor's payouts as CSV for admins (vendors.manage): the resource of the vendor's own (app.vendor_.payouts_.csv.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { vendorPayoutsCsvResponse, vendorScope } from "~/lib/vendor-pages.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => vendorPayoutsCsvResponse(await vendorScope(request, params), request);
