/**
 * Vendors for admins (issue 17; vendors.manage): search by name, handle or email, cursor pages,
 * each vendor's commission rate, stores and products by status; a vendor opens its portal pages
 * as the vendor sees them (app.vendors_.$id.tsx). Same service and zod query as GET /api/vendors.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, Card, Filters, Layout, Page, Text } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { vendorsEndpoints } from "~/contract/vendors";
import { getAppContext } from "~/context.server";
import { issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { listVendors } from "~/services/vendors/portal.server";
import { LinkedTitle, useListParams, useQueryParam } from "~/components/admin";
import { CursorFooter, cursorParams } from "~/components/admin/CursorFooter";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "vendors.manage");
  const sp = new URL(request.url).searchParams;
  const q = sp.get("q") ?? "";
  const { cursor, trail } = cursorParams(sp);
  const parsed = vendorsEndpoints.vendorsList.query.safeParse({ q: q || undefined, cursor: cursor ?? undefined });
  if (!parsed.success) return { q, cursor, trail, error: issuesMessage(parsed.error), list: null };
  try {
    return { q, cursor, trail, error: null, list: await listVendors(getAppContext().db, parsed.data) };
  } catch (e) {
    return { q, cursor, trail, error: refusalOf(e).message, list: null };
  }
};

export default function VendorsRoute() {
  const d = useLoaderData<typeof loader>();
  const { setParam } = useListParams({ pageKey: "cursor" });
  const navigation = useNavigation();
  const query = useQueryParam(d.q, setParam);
  const items = d.list?.items ?? [];
  return (
    <Page title="Vendors" subtitle="Each vendor's portal as the vendor sees it: performance, products, stores and payouts.">
      <Layout>
        {d.error ? (
          <Layout.Section>
            <Banner tone="critical">
              <p data-testid="vendors-error">{d.error}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <Filters {...query.filterProps} queryPlaceholder="Search vendors by name, handle or email" filters={[]} onClearAll={() => query.setValue("")} loading={navigation.state === "loading"} />
            <ResponsiveIndexTable
              resourceName={{ singular: "vendor", plural: "vendors" }}
              itemCount={items.length}
              selectable={false}
              headings={[
                { title: "Vendor" },
                { title: "Email" },
                { title: "Commission", alignment: "end" },
                { title: "Stores", alignment: "end" },
                { title: "Active", alignment: "end" },
                { title: "Draft", alignment: "end" },
                { title: "Archived", alignment: "end" },
              ]}
              emptyState={
                <Text as="p" alignment="center">
                  No vendors match.
                </Text>
              }
            >
              {items.map((v, i) => (
                <ResponsiveRow id={v.id} key={v.id} position={i}>
                  <ResponsiveCell>
                    <LinkedTitle to={`/app/vendors/${encodeURIComponent(v.id)}`} testId="vendor-link" title={v.name} details={v.handle} primary />
                  </ResponsiveCell>
                  <ResponsiveCell>{v.email ?? "—"}</ResponsiveCell>
                  {[`${v.commission_rate}%`, v.storeCount, v.productCounts.active, v.productCounts.draft, v.productCounts.archived].map((value, j) => (
                    <ResponsiveCell key={j}>
                      <Text as="span" alignment="end" numeric>
                        {value}
                      </Text>
                    </ResponsiveCell>
                  ))}
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            <CursorFooter summary={`${items.length} vendor${items.length === 1 ? "" : "s"} on this page`} cursor={d.cursor} trail={d.trail} nextCursor={d.list?.nextCursor ?? null} />
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
