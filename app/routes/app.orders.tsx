/**
 * Orders (issue 16): the merchant's orders as an IndexTable (name, date, customer, total, payment and
 * fulfilment badges, items), a search field (order name or number, customer, product, SKU, tracking),
 * status tabs as saved views, filter pills (payment status, vendor, date range) and cursor paging.
 * Reads through the same service and zod query schema as GET /api/orders/admin; orders.manage only.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Box, Card, ChoiceList, Filters, IndexTable, InlineStack, Layout, Page, Pagination, Text, TextField } from "@shopify/polaris";
import { adminOrdersEndpoints, FINANCIAL_STATUSES } from "~/contract/admin-orders";
import { getAppContext } from "~/context.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { listAdminOrders } from "~/services/orders/admin-orders.server";
import { StatusTabs, useListParams, useQueryParam } from "~/components/admin";
import { financialTone, fulfillmentTone, humanStatus, money, ORDER_TABS, tabFilters, type OrderTab } from "~/lib/admin-orders-view";

/** The cursors of the pages before this one, newest last, so that "Previous" can go back without a backwards cursor. */
const TRAIL_SEP = ".";
/** The first page in the trail (it has no cursor). Cursors are base64url of JSON: never "." and never a lone "-". */
const FIRST = "-";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "orders.manage");
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  const tab = (ORDER_TABS.find((t) => t.id === sp.get("view"))?.id ?? "all") as OrderTab;
  const raw = {
    q: sp.get("q") || undefined,
    financialStatus: sp.get("financial") || undefined,
    vendorId: sp.get("vendor") || undefined,
    from: sp.get("from") || undefined,
    to: sp.get("to") ? `${sp.get("to")}T23:59:59.999Z` : undefined,
    cursor: sp.get("cursor") || undefined,
    ...tabFilters(tab),
  };
  const parsed = adminOrdersEndpoints.ordersAdminList.query.safeParse(raw);
  if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
  // One query after another: the embedded database serves one statement stream at a time.
  let list: Awaited<ReturnType<typeof listAdminOrders>>;
  try {
    list = await listAdminOrders(ctx.db, parsed.data);
  } catch (e) {
    // A cursor from another sort or a hand-edited URL: the service's refusal as the page's error.
    const refusal = refusalOf(e);
    throw staffError(refusal.status, refusal.message);
  }
  const vendors = await ctx.db.vendor.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" }, take: 200 });
  return {
    filters: { view: tab, q: sp.get("q") ?? "", financial: sp.get("financial") ?? "", vendor: sp.get("vendor") ?? "", from: sp.get("from") ?? "", to: sp.get("to") ?? "" },
    cursor: sp.get("cursor") ?? "",
    trail: sp.get("trail") ?? "",
    orders: list.items,
    nextCursor: list.nextCursor,
    vendors,
  };
};

export default function OrdersPage() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // Every filter change starts again from the first page (the cursor belongs to the old filters).
  const { setParams, reset } = useListParams({ pageKey: "cursor" });
  const setFilter = (key: string, value: string) => setParams({ [key]: value, trail: null });
  const query = useQueryParam(data.filters.q, setFilter);
  const vendorName = (id: string) => data.vendors.find((v) => v.id === id)?.name ?? id;
  const trail = data.trail ? data.trail.split(TRAIL_SEP) : [];
  const applied = [
    ...(data.filters.financial ? [{ key: "financial", label: `Payment: ${humanStatus(data.filters.financial)}`, onRemove: () => setFilter("financial", "") }] : []),
    ...(data.filters.vendor ? [{ key: "vendor", label: `Vendor: ${vendorName(data.filters.vendor)}`, onRemove: () => setFilter("vendor", "") }] : []),
    ...(data.filters.from || data.filters.to
      ? [{ key: "dates", label: `Placed ${data.filters.from || "…"} to ${data.filters.to || "…"}`, onRemove: () => setParams({ from: "", to: "", trail: null }) }]
      : []),
  ];
  const filtered = Boolean(data.filters.q || applied.length || data.filters.view !== "all");

  return (
    <Page
      title="Orders"
      subtitle="Every order of the shop: search, filter, open one to fulfil, track or cancel it."
      secondaryActions={[{ content: "Analytics", url: "/app/orders/analytics" }]}
    >
      <Layout>
        <Layout.Section>
          <Card padding="0">
            <StatusTabs tabs={ORDER_TABS} selected={data.filters.view} idPrefix="orders-tab-" accessibilityLabel={(t) => t.label} onSelect={(id) => setFilter("view", id === "all" ? "" : id)} />
            <Filters
              {...query.filterProps}
              queryPlaceholder="Search by order, customer, product, SKU or tracking number"
              onClearAll={() => {
                query.setValue("");
                reset(data.filters.view !== "all" ? { view: data.filters.view } : {});
              }}
              filters={[
                {
                  key: "financial",
                  label: "Payment status",
                  filter: (
                    <ChoiceList
                      title="Payment status"
                      titleHidden
                      choices={FINANCIAL_STATUSES.map((s) => ({ label: humanStatus(s), value: s }))}
                      selected={data.filters.financial ? [data.filters.financial] : []}
                      onChange={(v) => setFilter("financial", v[0] ?? "")}
                    />
                  ),
                  shortcut: true,
                },
                {
                  key: "vendor",
                  label: "Vendor",
                  filter: <ChoiceList title="Vendor" titleHidden choices={data.vendors.map((v) => ({ label: v.name, value: v.id }))} selected={data.filters.vendor ? [data.filters.vendor] : []} onChange={(v) => setFilter("vendor", v[0] ?? "")} />,
                  shortcut: true,
                },
                {
                  key: "dates",
                  label: "Date placed",
                  filter: (
                    <BlockStack gap="200">
                      <TextField label="From" type="date" autoComplete="off" value={data.filters.from} onChange={(v) => setFilter("from", v)} />
                      <TextField label="To" type="date" autoComplete="off" value={data.filters.to} onChange={(v) => setFilter("to", v)} />
                    </BlockStack>
                  ),
                },
              ]}
              appliedFilters={applied}
              loading={navigation.state === "loading"}
            />
            <IndexTable
              resourceName={{ singular: "order", plural: "orders" }}
              itemCount={data.orders.length}
              selectable={false}
              headings={[{ title: "Order" }, { title: "Date" }, { title: "Customer" }, { title: "Total", alignment: "end" }, { title: "Payment" }, { title: "Fulfilment" }, { title: "Items", alignment: "end" }]}
              emptyState={
                <Box padding="400">
                  <Text as="p" tone="subdued">
                    <span data-testid="orders-empty">{filtered ? "No order matches these filters." : "No orders yet: they appear here as shoppers check out."}</span>
                  </Text>
                </Box>
              }
            >
              {data.orders.map((o, i) => (
                <IndexTable.Row id={o.id} key={o.id} position={i}>
                  <IndexTable.Cell>
                    <Link to={`/app/orders/${encodeURIComponent(o.id)}`} data-testid="order-link">
                      <Text as="span" fontWeight="semibold">
                        {o.name}
                      </Text>
                    </Link>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{new Date(o.created_at).toLocaleString("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })}</IndexTable.Cell>
                  <IndexTable.Cell>{o.customer.name ?? o.customer.email ?? "No customer"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {money(o.total)}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{o.financial_status ? <Badge tone={financialTone(o.financial_status)}>{humanStatus(o.financial_status)}</Badge> : "—"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <InlineStack gap="100">
                      {o.status === "cancelled" ? <Badge tone="critical">Cancelled</Badge> : null}
                      <Badge tone={fulfillmentTone(o.stage)}>{humanStatus(o.stage)}</Badge>
                    </InlineStack>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {o.item_count} {o.item_count === 1 ? "item" : "items"}
                    </Text>
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
            <Box padding="300">
              <InlineStack align="center">
                <Pagination
                  hasPrevious={Boolean(data.cursor)}
                  onPrevious={() => {
                    const prev = trail[trail.length - 1];
                    setParams({ cursor: prev && prev !== FIRST ? prev : "", trail: trail.slice(0, -1).join(TRAIL_SEP) });
                  }}
                  hasNext={Boolean(data.nextCursor)}
                  onNext={() => setParams({ cursor: data.nextCursor ?? "", trail: [...trail, data.cursor || FIRST].join(TRAIL_SEP) })}
                />
              </InlineStack>
            </Box>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
