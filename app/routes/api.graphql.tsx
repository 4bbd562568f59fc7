/**
 * POST /api/graphql — the data service (GraphQL with an `x-api-key` header, for trusted backend
 * services): app/services/data-service/graphql.server.ts, schema in app/services/data-service/schema.ts.
 * This flat route is more specific than the `api.$` splat, so Remix sends this path here and not
 * to the REST router (which has no /graphql endpoint). Other methods answer 405.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "~/context.server";
import { handleDataServiceRequest } from "~/services/data-service/graphql.server";

export const loader = ({ request }: LoaderFunctionArgs) => handleDataServiceRequest(request, getAppContext());
export const action = ({ request }: ActionFunctionArgs) => handleDataServiceRequest(request, getAppContext());
