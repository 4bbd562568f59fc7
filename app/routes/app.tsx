import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { requireStaff } from "~/lib/staff-auth.server";
import { staffErrorMessage } from "~/lib/staff-errors";
import { navigationFor } from "~/services/staff.server";
import { AdminFrame } from "~/components/AdminFrame";
import { NotFoundPage, RefusalPage } from "~/components/admin/NotFoundPage";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { user, embedded } = await requireStaff(request);
  return {
    embedded,
    apiKey: process.env.SHOPIFY_API_KEY ?? "",
    nav: navigationFor(user),
    user: {
      email: user.email,
      name: [user.first_name, user.last_name].filter(Boolean).join(" ") || user.email || "Staff",
      role: user.role,
    },
  };
};

export default function AppLayout() {
  const data = useLoaderData<typeof loader>();
  return (
    <AdminFrame embedded={data.embedded} apiKey={data.apiKey} nav={data.nav} user={data.user}>
      <Outlet />
    </AdminFrame>
  );
}

/**
 * Shopify's boundary keeps embedded auth redirects working; our own refusals (403 no access, 404
 * not found, 400…) get a Polaris page, inside the admin frame with its navigation when the layout's
 * loader got as far as knowing the staff member (a page's own loader refused).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const frame = useRouteLoaderData<typeof loader>("routes/app");
  // Our own refusals carry a message; anything else (Shopify's auth bounce pages) goes to Shopify's boundary.
  const message = isRouteErrorResponse(error) ? staffErrorMessage(error.data) : null;
  if (isRouteErrorResponse(error) && (message || (error.status === 404 && frame))) {
    const homeUrl = frame?.nav[0]?.url;
    const page = error.status === 404 ? <NotFoundPage message={message ?? undefined} homeUrl={homeUrl} /> : <RefusalPage status={error.status} message={message ?? ""} homeUrl={homeUrl} />;
    if (frame) {
      return (
        <AdminFrame embedded={frame.embedded} apiKey={frame.apiKey} nav={frame.nav} user={frame.user}>
          {page}
        </AdminFrame>
      );
    }
    return <AppProvider i18n={enTranslations}>{page}</AppProvider>;
  }
  return boundary.error(error);
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
