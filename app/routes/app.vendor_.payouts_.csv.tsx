/**
 * The vendor's payouts as CSV (the API's columns): a resource route the payouts page fetches and
 * saves (inside the Shopify admin, App Bridge adds the session token to fetch, which a plain link
 * would not carry). Also serves /app/vendors/:id/payouts/csv for admins.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { vendorPayoutsCsvResponse, vendorScope } from "~/lib/vendor-pages.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => vendorPayoutsCsvResponse(await vendorScope(request, params), request);
