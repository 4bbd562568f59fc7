/**
 * The ad requests queue (issue 18; docs/product-ads.md "Ad requests"): what vendors asked for, newest
 * first, with tabs counted by the service (open, completed, all), a vendor filter, a search (brief,
 * vendor name, product titles) and cursor paging. Each request opens its page, where the team makes
 * ads from it. Same services and zod queries as GET /api/product-ad-requests and its count;
 * ads.manage only.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Box, Card, InlineStack, Layout, Page, Text, Thumbnail } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { AdRequestsQuery } from "~/contract/product-ad-requests";
import { getAppContext } from "~/context.server";
import { issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { teamViewer, vendorOptions } from "~/lib/ads-admin.server";
import { dayText, moneyText, REQUEST_STATUS_LABEL, REQUEST_TABS, requestTabOf } from "~/lib/ads-admin-view";
import { countAdRequests, listAdRequests } from "~/services/product-ads/requests.server";
import { TabbedVendorFilters } from "~/components/admin/ads/TabbedVendorFilters";
import { cursorParams, CursorFooter } from "~/components/admin/CursorFooter";
import { RowLink } from "~/components/admin/LinkedTitle";
import { thumbnailUrl } from "~/client/images";

const PLACEHOLDER = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'/%3E";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "ads.manage");
  const db = getAppContext().db;
  const sp = new URL(request.url).searchParams;
  const view = requestTabOf(sp.get("status"));
  const { cursor, trail } = cursorParams(sp);
  const parsed = AdRequestsQuery.safeParse({ status: view === "all" ? undefined : view, vendorId: sp.get("vendorId") || undefined, q: sp.get("q") || undefined, cursor: cursor ?? undefined });
  if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
  const viewer = teamViewer(user);
  try {
    // One query after another: the embedded database serves one statement stream at a time.
    const list = await listAdRequests(db, viewer, parsed.data);
    const counts = await countAdRequests(db, viewer, { vendorId: parsed.data.vendorId, q: parsed.data.q });
    const vendors = await vendorOptions(db);
    return { filters: { status: view, vendorId: parsed.data.vendorId ?? "", q: parsed.data.q ?? "" }, cursor, trail, requests: list.items, nextCursor: list.nextCursor, counts, vendors };
  } catch (e) {
    if (e instanceof Response) throw e;
    // A hand-edited cursor: the service's refusal as the page's error.
    const refusal = refusalOf(e);
    throw staffError(refusal.status, refusal.message);
  }
};

export default function AdRequestsPage() {
  const data = useLoaderData<typeof loader>();

  return (
    <Page
      title="Ad requests"
      subtitle="What vendors asked the ads team for: products, photos, features, brief and budget."
      backAction={{ content: "Ads", url: "/app/ads" }}
      secondaryActions={[{ content: "Ad features", url: "/app/ads/features" }]}
    >
      <Layout>
        <Layout.Section>
          <Card padding="0">
            <TabbedVendorFilters
              tabs={REQUEST_TABS}
              defaultTab="open"
              idPrefix="requests-tab-"
              filters={data.filters}
              counts={data.counts}
              vendors={data.vendors}
              queryPlaceholder="Search the brief, vendor or product"
            />
            <ResponsiveIndexTable
              resourceName={{ singular: "ad request", plural: "ad requests" }}
              itemCount={data.requests.length}
              selectable={false}
              headings={[{ title: "Products" }, { title: "Status" }, { title: "Vendor and date" }, { title: "Features" }, { title: "Budget / day", alignment: "end" }, { title: "Ads", alignment: "end" }]}
              emptyState={
                <Box padding="400">
                  <Text as="p" tone="subdued">
                    <span data-testid="requests-empty">
                      {data.filters.q || data.filters.vendorId || data.filters.status !== "all" ? "No ad request matches these filters." : "No ad request yet: vendors file them from their Ads page."}
                    </span>
                  </Text>
                </Box>
              }
            >
              {data.requests.map((r, i) => {
                const first = r.products[0];
                return (
                  <ResponsiveRow id={r.id} key={r.id} position={i}>
                    <ResponsiveCell>
                      <InlineStack gap="200" blockAlign="center" wrap={false}>
                        <Thumbnail size="small" source={first?.featuredImage?.url ? thumbnailUrl(first.featuredImage.url) : PLACEHOLDER} alt={first?.title ?? ""} />
                        <BlockStack gap="050">
                          <RowLink to={`/app/ads/requests/${encodeURIComponent(r.id)}`} testId="request-link" primary>
                            {first ? first.title : "Products removed"}
                            {r.products.length > 1 ? ` + ${r.products.length - 1} more` : ""}
                          </RowLink>
                          <div style={{ maxWidth: "18rem" }} title={r.brief}>
                            <Text as="span" tone="subdued" variant="bodySm" truncate>
                              {r.brief}
                            </Text>
                          </div>
                        </BlockStack>
                      </InlineStack>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <span data-testid="request-status" data-status={r.status}>
                        <Badge tone={r.status === "open" ? "attention" : "success"}>{REQUEST_STATUS_LABEL[r.status]}</Badge>
                      </span>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      {/* The filing date under the vendor: a column of its own made the table wider than the page. */}
                      <BlockStack gap="050">
                        <Text as="span">{r.vendor.name}</Text>
                        <Text as="span" tone="subdued" variant="bodySm">
                          Filed {dayText(r.created_at)}
                        </Text>
                      </BlockStack>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <div style={{ maxWidth: "14rem" }}>
                        <Text as="span" variant="bodySm" truncate>
                          {r.features.map((f) => f.name).join(", ") || "—"}
                        </Text>
                      </div>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <Text as="span" alignment="end" numeric>
                        {r.daily_budget === null ? "—" : moneyText({ amount: r.daily_budget, currencyCode: r.currencyCode })}
                      </Text>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <Text as="span" alignment="end" numeric>
                        {r.adsCount}
                      </Text>
                    </ResponsiveCell>
                  </ResponsiveRow>
                );
              })}
            </ResponsiveIndexTable>
            <CursorFooter summary={`${data.requests.length} request${data.requests.length === 1 ? "" : "s"} on this page`} cursor={data.cursor} trail={data.trail} nextCursor={data.nextCursor} />
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
