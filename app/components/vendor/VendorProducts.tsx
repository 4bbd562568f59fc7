/**
 * A vendor's products with their performance over a range: views, saves, try-ons, orders, units,
 * revenue, return rate and conversion, sortable by each; search by title, status tabs, cursor
 * pages; and a status change (active / draft / archived) after a confirmation, the store's or the
 * API's refusal shown as a banner. Posts `{ intent: "status", id, status }` to the route's action.
 */
import { useFetcher, useNavigation } from "@remix-run/react";
import { Badge, Banner, Card, Filters, InlineStack, Layout, Page, Select, Text, Thumbnail, type IndexTableProps } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useState } from "react";
import type { VendorPerformanceSort, VendorProductsPerformance } from "~/contract/vendor-analytics";
import type { VendorProductStatus } from "~/contract/vendors";
import { ActionBannerSection, ConfirmModal, StatusTabs, useFetcherResult, useListParams, useQueryParam, type ActionOutcome } from "~/components/admin";
import { PRESET_DAYS, countFormat, longDay, moneyFormat, num, percent } from "~/components/admin/AnalyticsParts";
import { CursorFooter } from "~/components/admin/CursorFooter";
import { VendorTabs } from "./VendorTabs";
import { thumbnailUrl } from "~/client/images";

export type ProductStatusFilter = "all" | VendorProductStatus;
const STATUS_TABS: { id: ProductStatusFilter; label: string }[] = [
  { id: "all", label: "All" },
  { id: "active", label: "Active" },
  { id: "draft", label: "Draft" },
  { id: "archived", label: "Archived" },
];
const STATUS_TONE: Record<string, "success" | "info" | undefined> = { active: "success", draft: "info" };
const STATUS_LABEL: Record<string, string> = { active: "Active", draft: "Draft", archived: "Archived" };

/** The sortable columns, in the table's order, with the sort each one asks the API for. */
const COLUMNS: { title: string; sort: VendorPerformanceSort }[] = [
  { title: "Views", sort: "views" },
  { title: "Saves", sort: "saves" },
  { title: "Try-ons", sort: "try_ons" },
  { title: "Orders", sort: "orders" },
  { title: "Units", sort: "units" },
  { title: "Revenue", sort: "revenue" },
  { title: "Return rate", sort: "return_rate" },
  { title: "Conversion", sort: "conversion" },
];
// Product, status (the vendor's status change), then the measures.
const SORTABLE = [true, false, ...COLUMNS.map(() => true)];

export type StatusActionResult = ({ ok: true; message: string } | { ok: false; error: string }) & { intent: "status" };

export interface VendorProductsProps {
  base: string;
  title: string;
  backAction?: { content: string; url: string };
  days: number;
  q: string;
  status: ProductStatusFilter;
  sort: VendorPerformanceSort;
  order: "asc" | "desc";
  /** The cursors of the pages before this one (the way back), and this page's. */
  trail: string[];
  cursor: string | null;
  error: string | null;
  performance: VendorProductsPerformance | null;
  /** Whether the status column offers the change (the vendor's page and an admin's view of it both do). */
  canChangeStatus: boolean;
}

export function VendorProducts(p: VendorProductsProps) {
  const { setParam, setParams } = useListParams({ pageKey: "cursor" });
  const navigation = useNavigation();
  const query = useQueryParam(p.q, setParam);
  const [changing, setChanging] = useState<{
    id: string;
    title: string;
    from: string;
    to: VendorProductStatus;
  } | null>(null);
  const [notice, setNotice] = useState<ActionOutcome | null>(null);
  const perf = p.performance;
  const money = moneyFormat(perf?.currencyCode ?? "USD");
  // Column 0 is the title; the measures start at column 2.
  const sortIndex = p.sort === "title" ? 0 : 2 + COLUMNS.findIndex((c) => c.sort === p.sort);
  const headings = [{ title: "Product" }, { title: "Status" }, ...COLUMNS.map((c) => ({ title: c.title, alignment: "end" as const }))] as IndexTableProps["headings"];
  return (
    <Page fullWidth title={p.title} backAction={p.backAction} subtitle={perf ? `Performance ${longDay(perf.from)} – ${longDay(perf.to)}, days in ${perf.timeZone}` : undefined}>
      <Layout>
        <Layout.Section>
          <VendorTabs base={p.base} selected="products" />
        </Layout.Section>
        <ActionBannerSection result={notice} onDismiss={() => setNotice(null)} testId="product-status-notice" />
        {p.error ? (
          <Layout.Section>
            <Banner tone="critical">
              <p data-testid="products-error">{p.error}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <StatusTabs
              tabs={STATUS_TABS}
              selected={p.status}
              onSelect={(s) =>
                setParams({
                  status: s === "all" ? null : s,
                  cursor: null,
                  trail: null,
                })
              }
              idPrefix="status-"
            />
            <Filters {...query.filterProps} queryPlaceholder="Search products by title" filters={[]} onClearAll={() => query.setValue("")} loading={navigation.state === "loading"}>
              <div style={{ paddingLeft: 8 }}>
                <Select
                  label="Range"
                  labelInline
                  options={PRESET_DAYS.map((d) => ({
                    label: `Last ${d} days`,
                    value: String(d),
                  }))}
                  value={String(p.days)}
                  onChange={(v) => setParams({ days: v, cursor: null, trail: null })}
                />
              </div>
            </Filters>
            <ResponsiveIndexTable
              resourceName={{ singular: "product", plural: "products" }}
              itemCount={perf?.items.length ?? 0}
              selectable={false}
              headings={headings}
              sortable={SORTABLE}
              sortColumnIndex={sortIndex}
              sortDirection={p.order === "asc" ? "ascending" : "descending"}
              defaultSortDirection="descending"
              onSort={(index, direction) => {
                const sort = index === 0 ? "title" : COLUMNS[index - 2]?.sort;
                if (sort)
                  setParams({
                    sort,
                    order: direction === "ascending" ? "asc" : "desc",
                    cursor: null,
                    trail: null,
                  });
              }}
              emptyState={
                <Text as="p" alignment="center">
                  No products match.
                </Text>
              }
            >
              {(perf?.items ?? []).map((row, i) => {
                const m = row.measures;
                const cells = [
                  countFormat(m.views),
                  countFormat(m.saves),
                  countFormat(m.tryOns),
                  countFormat(m.orders),
                  countFormat(m.units),
                  money(m.revenue),
                  percent(num(m.returnRate)),
                  percent(num(m.conversion)),
                ];
                return (
                  <ResponsiveRow id={row.productId} key={row.productId} position={i}>
                    <ResponsiveCell>
                      <InlineStack gap="200" blockAlign="center" wrap={false}>
                        {row.imageUrl ? <Thumbnail size="small" source={thumbnailUrl(row.imageUrl)} alt="" /> : null}
                        <Text as="span" fontWeight="semibold">
                          <span data-testid="vendor-product-title">{row.title}</span>
                        </Text>
                      </InlineStack>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <span data-testid="vendor-product-status" data-status={row.status ?? ""}>
                        {/* The status changes where it is read. */}
                        {p.canChangeStatus && row.status ? (
                          <Select
                            label={`Status of ${row.title}`}
                            labelHidden
                            options={STATUS_TABS.filter((t) => t.id !== "all").map((t) => ({ label: t.label, value: t.id }))}
                            value={row.status}
                            onChange={(v) =>
                              setChanging({
                                id: row.productId,
                                title: row.title,
                                from: row.status ?? "",
                                to: v as VendorProductStatus,
                              })
                            }
                          />
                        ) : (
                          <Badge tone={STATUS_TONE[row.status ?? ""]}>{STATUS_LABEL[row.status ?? ""] ?? "Removed"}</Badge>
                        )}
                      </span>
                    </ResponsiveCell>
                    {cells.map((c, j) => (
                      <ResponsiveCell key={COLUMNS[j].sort}>
                        <Text as="span" alignment="end" numeric>
                          {c}
                        </Text>
                      </ResponsiveCell>
                    ))}
                  </ResponsiveRow>
                );
              })}
            </ResponsiveIndexTable>
            <CursorFooter
              summary={perf ? `${perf.total} product${perf.total === 1 ? "" : "s"}` : ""}
              cursor={p.cursor}
              trail={p.trail}
              nextCursor={perf?.nextCursor ?? null}
            />
          </Card>
        </Layout.Section>
      </Layout>
      {changing ? (
        <StatusModal
          change={changing}
          onClose={() => setChanging(null)}
          onDone={(message) => {
            setChanging(null);
            setNotice({ ok: true, message });
          }}
        />
      ) : null}
    </Page>
  );
}

function StatusModal({
  change,
  onClose,
  onDone,
}: {
  change: { id: string; title: string; from: string; to: VendorProductStatus };
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const fetcher = useFetcher<StatusActionResult>();
  useFetcherResult(fetcher, (r) => r.ok && onDone(r.message));
  const refusal = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return (
    <ConfirmModal
      title={`Set “${change.title}” to ${change.to}?`}
      confirmLabel={`Set ${change.to}`}
      destructive={change.to === "archived"}
      loading={fetcher.state !== "idle"}
      onConfirm={() => fetcher.submit({ intent: "status", id: change.id, status: change.to }, { method: "post" })}
      onClose={onClose}
      error={refusal}
      errorTestId="product-status-error"
    >
      <Text as="p">
        {change.to === "active"
          ? "Shoppers will see the product in the store again."
          : change.to === "draft"
          ? "The product is hidden from shoppers until it is set active again."
          : "The product is hidden from shoppers and kept out of your active catalogue."}{" "}
        {`It is ${change.from} now.`}
      </Text>
    </ConfirmModal>
  );
}
