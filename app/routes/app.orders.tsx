/**
 * Orders (issue 16): the merchant's orders as an IndexTable (name, date, customer, total, payment and
 * fulfilment badges, items), a search field (order name or number, customer, product, SKU, tracking),
 * status tabs as saved views, filter pills (payment status, vendor, date range) and cursor paging.
 * Reads through the same service and zod query schema as GET /api/orders/admin; orders.manage only.
 *
 * Bulk actions on the selected orders (at most MAX_BULK_ORDERS): "Mark items as…" moves, in each
 * order, every item allowed to move (the service of POST /api/orders/admin/bulk/items-status) and the
 * banner lists per order what moved and what was refused with the reason; "Print packing list"
 * shows the HTML packing list (app.orders_.packing-list.tsx) in a new tab with the print dialog, or
 * downloads the PDF.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Card, ChoiceList, Filters, InlineStack, Layout, Page, Pagination, Text, TextField, useIndexResourceState } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useEffect, useState } from "react";
import { adminOrdersEndpoints, FINANCIAL_STATUSES } from "~/contract/admin-orders";
import { adminOrdersBulkEndpoints, MAX_BULK_ORDERS, type BulkItemStatus, type BulkItemsStatusResult } from "~/contract/admin-orders-bulk";
import { getAppContext } from "~/context.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError, staffErrorMessage } from "~/lib/staff-errors";
import { answerRefusals, issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { listAdminOrders } from "~/services/orders/admin-orders.server";
import { bulkSetAdminItemStatus } from "~/services/orders/admin-orders-bulk.server";
import { RowLink, StatusTabs, useFetcherResult, useListParams, useQueryParam } from "~/components/admin";
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

/** One order's line in the bulk action's banner. */
export type BulkLine = { id: string; name: string; tone: "success" | "warning" | "critical"; text: string };
export type OrdersActionResult = { ok: true; message: string; lines: BulkLine[] } | { ok: false; error: string };

const items = (n: number) => `${n} ${n === 1 ? "item" : "items"}`;
const orders = (n: number) => `${n} ${n === 1 ? "order" : "orders"}`;

/** What the banner says of each order: what moved, what was already there, what was refused and why. */
function bulkLines(r: BulkItemsStatusResult): BulkLine[] {
  return r.results.map((o) => {
    const reasons = o.refused.map((i) => i.reason);
    const refusedText = reasons.length ? ` Not moved: ${reasons.slice(0, 3).join("; ")}${reasons.length > 3 ? `; and ${reasons.length - 3} more` : ""}.` : "";
    const already = o.already.length ? ` ${items(o.already.length)} already ${r.status}.` : "";
    const name = o.name ?? o.order_id;
    if (o.outcome === "moved") return { id: o.order_id, name, tone: reasons.length ? "warning" : "success", text: `${items(o.moved.length)} marked ${r.status}.${already}${refusedText}` };
    if (o.outcome === "unchanged") return { id: o.order_id, name, tone: reasons.length ? "warning" : "success", text: `Nothing to mark:${already || " no items."}${refusedText}` };
    return { id: o.order_id, name, tone: "critical", text: `Refused: ${(o.error?.message ?? "nothing could move").replace(/\.$/, "")}.${refusedText}` };
  });
}

export const action = async ({ request }: ActionFunctionArgs): Promise<OrdersActionResult> => {
  const { user } = await requireAdmin(request, "orders.manage");
  const ctx = getAppContext();
  const form = await formOf(request);
  return answerRefusals<OrdersActionResult>(async () => {
    if (form.get("intent") !== "bulk-status") return { ok: false, error: "Unknown action" };
    const parsed = adminOrdersBulkEndpoints.ordersAdminBulkItemsStatus.body.safeParse({ orderIds: form.getAll("ids").filter((v) => typeof v === "string"), status: form.get("status") });
    if (!parsed.success) return { ok: false, error: parsed.error.issues.map((i) => i.message).join("; ") };
    const r = await bulkSetAdminItemStatus(ctx, user, parsed.data);
    const parts = [r.moved ? `${orders(r.moved)} updated` : null, r.unchanged ? `${orders(r.unchanged)} unchanged` : null, r.refused ? `${orders(r.refused)} refused` : null].filter(Boolean);
    return { ok: true, message: `Mark items as ${r.status}: ${parts.join(", ")}.`, lines: bulkLines(r) };
  });
};

type PackingFormat = "html" | "pdf";
const PACKING_LIST_PATH = "/app/orders/packing-list";

/**
 * Fetches the packing list (inside the Shopify admin, App Bridge adds the session token to fetch;
 * a plain link would open without it) and saves the PDF, or shows the HTML in `win` — a tab opened
 * on the click, before the fetch, so that no popup blocker stops it — and opens the print dialog.
 * Without a tab (blocked), it prints from a hidden frame. Answers the error to show, or null.
 */
async function packingList(ids: string[], format: PackingFormat, win: Window | null): Promise<string | null> {
  const res = await fetch(`${PACKING_LIST_PATH}?ids=${ids.map(encodeURIComponent).join(",")}&format=${format}`);
  if (!res.ok) return staffErrorMessage(await res.text().catch(() => "")) ?? `The packing list could not be made (HTTP ${res.status})`;
  // A signed-out session is sent to the login page: that is no packing list.
  if (res.redirected && new URL(res.url).pathname !== PACKING_LIST_PATH) return "Your session has ended: sign in again to print";
  if (format === "pdf") {
    if (!(res.headers.get("content-disposition") ?? "").startsWith("attachment")) return "Your session has ended: sign in again to download";
    const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "packing-list.pdf";
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    return null;
  }
  const html = await res.text();
  if (win && !win.closed) {
    win.document.open();
    win.document.write(html);
    // Printed once its images loaded (the load event comes after close()).
    win.addEventListener("load", () => win.print(), { once: true });
    win.document.close();
    win.focus();
    return null;
  }
  const frame = document.createElement("iframe");
  frame.title = "Packing list";
  frame.style.cssText = "position:fixed;right:0;bottom:0;width:0;height:0;border:0";
  frame.onload = () => {
    frame.contentWindow?.focus();
    frame.contentWindow?.print();
    setTimeout(() => frame.remove(), 1000);
  };
  frame.srcdoc = html;
  document.body.appendChild(frame);
  return null;
}

const MARK_AS: { status: BulkItemStatus; label: string }[] = [
  { status: "fulfilled", label: "Fulfilled" },
  { status: "shipped", label: "Shipped" },
  { status: "delivered", label: "Delivered" },
  { status: "returned", label: "Returned to sender" },
];

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

  const bulk = useFetcher<typeof action>();
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(data.orders);
  const selectedIds = allResourcesSelected ? data.orders.map((o) => o.id) : selectedResources;
  const [result, setResult] = useState<OrdersActionResult | null>(null);
  const [printing, setPrinting] = useState<PackingFormat | null>(null);
  useFetcherResult(bulk, (r) => {
    setResult(r);
    if (r.ok) clearSelection();
  });
  // Another page, tab or search: the selection was of the rows that were shown.
  const shown = data.orders.map((o) => o.id).join(" ");
  useEffect(() => clearSelection(), [shown, clearSelection]);
  const tooMany = selectedIds.length > MAX_BULK_ORDERS;
  const limitError = `At most ${MAX_BULK_ORDERS} orders per bulk action: ${selectedIds.length} are selected.`;
  const busy = bulk.state !== "idle" || printing !== null;
  const markAs = (status: BulkItemStatus) => {
    if (tooMany) return setResult({ ok: false, error: limitError });
    const fd = new FormData();
    fd.set("intent", "bulk-status");
    fd.set("status", status);
    for (const id of selectedIds) fd.append("ids", id);
    bulk.submit(fd, { method: "post" });
  };
  const print = async (format: PackingFormat) => {
    if (tooMany) return setResult({ ok: false, error: limitError });
    setPrinting(format);
    // Opened on the click itself: a tab opened after the fetch would count as a popup.
    const win = format === "html" ? window.open("", "_blank") : null;
    win?.document.write('<p style="font-family:sans-serif;padding:24px">Preparing the packing list…</p>');
    const error = await packingList(selectedIds, format, win).catch(() => "The packing list could not be fetched: check the connection and try again");
    if (error) win?.close();
    setPrinting(null);
    setResult(error ? { ok: false, error } : null);
  };
  const promotedBulkActions = [
    { title: "Mark items as…", actions: MARK_AS.map((m) => ({ content: m.label, disabled: busy, onAction: () => markAs(m.status) })) },
    {
      title: "Print packing list",
      actions: [
        { content: "Print (HTML page)", disabled: busy, onAction: () => void print("html") },
        { content: "Download PDF", disabled: busy, onAction: () => void print("pdf") },
      ],
    },
  ];

  return (
    <Page
      title="Orders"
      subtitle="Every order of the shop: search, filter, open one to fulfil, track or cancel it."
      secondaryActions={[{ content: "Analytics", url: "/app/orders/analytics" }]}
    >
      <Layout>
        {result ? (
          <Layout.Section>
            {result.ok ? (
              <Banner tone={result.lines.some((l) => l.tone !== "success") ? "warning" : "success"} title={result.message} onDismiss={() => setResult(null)}>
                <BlockStack gap="100">
                  {result.lines.map((l) => (
                    <Text as="p" key={l.id} tone={l.tone === "critical" ? "critical" : undefined}>
                      <span data-testid="bulk-line">
                        <Text as="span" fontWeight="semibold">
                          {l.name}
                        </Text>
                        : {l.text}
                      </span>
                    </Text>
                  ))}
                </BlockStack>
              </Banner>
            ) : (
              <Banner tone="critical" onDismiss={() => setResult(null)}>
                <span data-testid="bulk-error">{result.error}</span>
              </Banner>
            )}
          </Layout.Section>
        ) : null}
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
            <ResponsiveIndexTable
              resourceName={{ singular: "order", plural: "orders" }}
              itemCount={data.orders.length}
              selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
              onSelectionChange={handleSelectionChange}
              promotedBulkActions={promotedBulkActions}
              loading={busy}
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
                <ResponsiveRow id={o.id} key={o.id} position={i} selected={selectedResources.includes(o.id)}>
                  <ResponsiveCell>
                    <RowLink to={`/app/orders/${encodeURIComponent(o.id)}`} testId="order-link" primary>
                      {o.name}
                    </RowLink>
                  </ResponsiveCell>
                  <ResponsiveCell>{new Date(o.created_at).toLocaleString("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })}</ResponsiveCell>
                  <ResponsiveCell>{o.customer.name ?? o.customer.email ?? "No customer"}</ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {money(o.total)}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>{o.financial_status ? <Badge tone={financialTone(o.financial_status)}>{humanStatus(o.financial_status)}</Badge> : "—"}</ResponsiveCell>
                  <ResponsiveCell>
                    <InlineStack gap="100">
                      {o.status === "cancelled" ? <Badge tone="critical">Cancelled</Badge> : null}
                      <Badge tone={fulfillmentTone(o.stage)}>{humanStatus(o.stage)}</Badge>
                    </InlineStack>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {o.item_count} {o.item_count === 1 ? "item" : "items"}
                    </Text>
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
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
