import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { AppProvider, Banner, Page } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { requireStaff } from "~/lib/staff-auth.server";
import { staffErrorMessage } from "~/lib/staff-errors";
import { navigationFor } from "~/services/staff.server";
import { AdminFrame } from "~/components/AdminFrame";

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

/** Shopify's boundary keeps embedded auth redirects working; other errors get a Polaris page. */
export function ErrorBoundary() {
  const error = useRouteError();
  // Our own refusals carry a message; anything else (Shopify's auth bounce pages) goes to Shopify's boundary.
  const message = isRouteErrorResponse(error) ? staffErrorMessage(error.data) : null;
  if (isRouteErrorResponse(error) && message) {
    return (
      <AppProvider i18n={enTranslations}>
        <Page title={error.status === 403 ? "No access" : "Something went wrong"}>
          <Banner tone={error.status === 403 ? "warning" : "critical"}>{message}</Banner>
        </Page>
      </AppProvider>
    );
  }
  return boundary.error(error);
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
