/**
 * Any /app address no page answers (a mistyped or outdated link): a "page not found" page inside
 * the admin frame, navigation kept, answered with HTTP 404. The layout's loader (app.tsx) has
 * already checked that the caller is staff: a signed-out visitor goes to the login first.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { NotFoundPage } from "~/components/admin/NotFoundPage";
import type { loader as layoutLoader } from "./app";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  return data({ path: url.pathname }, { status: 404 });
};

export const meta: MetaFunction = () => [{ title: "Page not found" }];

export default function AdminNotFound() {
  const { path } = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof layoutLoader>("routes/app");
  return <NotFoundPage path={path} homeUrl={layout?.nav[0]?.url} />;
}
