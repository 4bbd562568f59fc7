/**
 * Product requests (issue 19; app/contract/product-requests.ts): what shoppers asked the store to
 * carry, newest first, with status tabs counted by the service (pending, in review, sourced,
 * declined, all), a search (brand, garment, email) and pages. Each opens its page (notes, status
 * moves, Taobao import). Same service and zod query as GET /api/product-requests; catalog.import only.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Box, Card, InlineStack, Layout, Page, Text, TextField, Thumbnail } from "@shopify/polaris";
import { productRequestsEndpoints, PRODUCT_REQUEST_STATUS_LABELS, PRODUCT_REQUEST_STATUSES, type ProductRequestStatus } from "~/contract/product-requests";
import { getAppContext } from "~/context.server";
import { issuesMessage } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { listProductRequests } from "~/services/product-requests.server";
import { PagedFooter, ResponsiveCell, ResponsiveIndexTable, ResponsiveRow, RowLink, StatusTabs, useDebouncedInput, useListParams } from "~/components/admin";

const PLACEHOLDER = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'/%3E";
const TABS = [...PRODUCT_REQUEST_STATUSES.map((s) => ({ id: s, label: PRODUCT_REQUEST_STATUS_LABELS[s] })), { id: "all", label: "All" }] as const;
type Tab = (typeof TABS)[number]["id"];

export const STATUS_TONE: Record<ProductRequestStatus, "attention" | "info" | "success" | undefined> = { pending: "attention", in_review: "info", sourced: "success", declined: undefined };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.import");
  const sp = new URL(request.url).searchParams;
  const tab = (TABS.some((t) => t.id === sp.get("status")) ? sp.get("status") : "pending") as Tab;
  const parsed = productRequestsEndpoints.productRequestsList.query.safeParse({
    status: tab === "all" ? undefined : tab,
    q: sp.get("q") || undefined,
    page: Number(sp.get("page") ?? 0) + 1,
  });
  if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
  const list = await listProductRequests(getAppContext().db, parsed.data);
  return { tab, q: parsed.data.q ?? "", ...list };
};

const dateText = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export default function ProductRequestsPage() {
  const data = useLoaderData<typeof loader>();
  const { setParams } = useListParams();
  const search = useDebouncedInput(data.q, (q) => setParams({ q }));
  const count = (id: Tab) => (id === "all" ? Object.values(data.counts).reduce((a, b) => a + b, 0) : data.counts[id]);

  return (
    <Page title="Product requests" subtitle="Products shoppers asked the store to carry: review them, source them (a Taobao import from the link), and the shopper is emailed when one is sourced.">
      <Layout>
        <Layout.Section>
          <Card padding="0">
            <StatusTabs tabs={TABS} selected={data.tab} idPrefix="prq-tab-" count={count} onSelect={(id) => setParams({ status: id })} />
            <Box padding="300">
              <TextField label="Search" labelHidden placeholder="Search brand, garment or email" autoComplete="off" value={search.value} onChange={search.onChange} clearButton onClearButtonClick={() => search.onChange("")} />
            </Box>
            <ResponsiveIndexTable
              resourceName={{ singular: "product request", plural: "product requests" }}
              itemCount={data.requests.length}
              selectable={false}
              headings={[{ title: "Request" }, { title: "Status" }, { title: "From" }, { title: "Link" }, { title: "Asked" }]}
              emptyState={
                <Box padding="400">
                  <Text as="p" tone="subdued">
                    <span data-testid="prq-empty">{data.q || data.tab !== "all" ? "No product request matches these filters." : "No product request yet: shoppers send them from the storefront's Request a product page."}</span>
                  </Text>
                </Box>
              }
            >
              {data.requests.map((r, i) => (
                <ResponsiveRow id={r.id} key={r.id} position={i}>
                  <ResponsiveCell>
                    <InlineStack gap="200" blockAlign="center" wrap={false}>
                      <Thumbnail size="small" source={r.image_url ?? PLACEHOLDER} alt="" />
                      <BlockStack gap="050">
                        <RowLink to={`/app/product-requests/${encodeURIComponent(r.id)}`} testId="prq-link" primary>
                          {r.brand}
                        </RowLink>
                        <Text as="span" tone="subdued" variant="bodySm" truncate>
                          {r.garment}
                        </Text>
                      </BlockStack>
                    </InlineStack>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <span data-testid="prq-status" data-status={r.status}>
                      <Badge tone={STATUS_TONE[r.status]}>{PRODUCT_REQUEST_STATUS_LABELS[r.status]}</Badge>
                    </span>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" variant="bodySm">
                      {r.email ?? r.user?.email ?? "—"}
                      {r.user && r.user.auth_provider !== "guest" ? "" : " (guest)"}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    {r.link ? (
                      <InlineStack gap="100" blockAlign="center" wrap={false}>
                        {r.taobao ? <Badge tone="info">Taobao</Badge> : null}
                        <div style={{ maxWidth: "14rem" }}>
                          <Text as="span" variant="bodySm" truncate>
                            {r.link}
                          </Text>
                        </div>
                      </InlineStack>
                    ) : (
                      "—"
                    )}
                  </ResponsiveCell>
                  <ResponsiveCell>{dateText(r.created_at)}</ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            <PagedFooter page={data.page - 1} pageSize={data.limit} total={data.total} onPage={(p) => setParams({ page: p ? String(p) : null })} />
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
