/**
 * Order analytics (issue 16): KPI cards (orders, revenue, average order value, units, return and
 * cancel rates) with their change against the previous period of the same length, daily revenue
 * and orders lines (the previous period dashed), top products and vendors as horizontal bars.
 * The range is in the URL: `?days=7|30|90` (ending today in the store's time zone; 30 when
 * nothing is given) or `?from=YYYY-MM-DD&to=YYYY-MM-DD`. Reads through the same zod query and
 * service as GET /api/orders/admin/analytics; a range the API refuses shows the API's message.
 * orders.manage only.
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, ButtonGroup, Card, InlineGrid, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { orderAnalyticsEndpoints, type AnalyticsFigures, type OrderAnalytics } from "~/contract/order-analytics";
import { getAppContext } from "~/context.server";
import { issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { addDays, todayIn } from "~/lib/store-time-zone";
import { orderAnalytics } from "~/services/orders/analytics.server";
import { VizChart, vizLinks, type ChartSeries } from "~/components/admin/VizChart";
import { useListParams } from "~/components/admin";

export const links: LinksFunction = () => vizLinks;

const PRESET_DAYS = [7, 30, 90] as const;
const DEFAULT_DAYS = 30;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "orders.manage");
  const ctx = getAppContext();
  const timeZone = ctx.config.STORE_TIMEZONE;
  const sp = new URL(request.url).searchParams;
  const custom = Boolean(sp.get("from") || sp.get("to"));
  const days = PRESET_DAYS.find((d) => String(d) === sp.get("days")) ?? DEFAULT_DAYS;
  const today = todayIn(timeZone);
  const asked = custom ? { from: sp.get("from") || undefined, to: sp.get("to") || undefined } : { from: addDays(today, -(days - 1)), to: today };
  const range = { preset: custom ? "custom" : String(days), from: asked.from ?? "", to: asked.to ?? "" };
  const parsed = orderAnalyticsEndpoints.ordersAdminAnalytics.query.safeParse({ ...asked, compare: "previous" });
  // A refused range is shown on the page next to the range picker, so the admin can correct it.
  if (!parsed.success) return { range, timeZone, error: issuesMessage(parsed.error), analytics: null };
  try {
    const analytics = await orderAnalytics({ db: ctx.db, timeZone }, parsed.data);
    return { range: { ...range, from: analytics.from, to: analytics.to }, timeZone, error: null, analytics };
  } catch (e) {
    return { range, timeZone, error: refusalOf(e).message, analytics: null };
  }
};

type Kpi = { key: keyof AnalyticsFigures; label: string; kind: "count" | "money" | "rate"; /** A rise is bad news (returns, cancellations). */ upIsBad?: boolean };
const KPIS: Kpi[] = [
  { key: "orders", label: "Orders", kind: "count" },
  { key: "revenue", label: "Revenue", kind: "money" },
  { key: "averageOrderValue", label: "Average order value", kind: "money" },
  { key: "units", label: "Units sold", kind: "count" },
  { key: "returnRate", label: "Return rate", kind: "rate", upIsBad: true },
  { key: "cancelRate", label: "Cancel rate", kind: "rate", upIsBad: true },
];

const num = (v: string | number) => (typeof v === "number" ? v : Number(v));
const moneyFormat = (currency: string) => {
  const f = new Intl.NumberFormat("en-US", { style: "currency", currency });
  return (v: number | string | null) => f.format(num(v ?? 0));
};
const percent = (v: number) => `${(v * 100).toFixed(1)}%`;
/** Axis ticks: "$1.2K" rather than "$1,200.00", so a narrow card keeps them level. */
const compactMoney = (currency: string) => {
  const f = new Intl.NumberFormat("en-US", { style: "currency", currency, notation: "compact", maximumFractionDigits: 1 });
  return (v: number | string | null) => f.format(num(v ?? 0));
};
const shortDay = (v: number | string | null) => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }).format(new Date(`${v}T00:00:00Z`));
const longDay = (day: string) => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));

/**
 * A figure's change against the previous period: counts and amounts as a percentage of the
 * previous value, rates in percentage points (a rate's percentage of a rate reads wrongly).
 */
function kpiChange(kpi: Kpi, current: number, previous: number): { text: string; tone: "success" | "critical" | undefined } {
  if (kpi.kind === "rate") {
    const pts = Math.round((current - previous) * 1000) / 10;
    if (pts === 0) return { text: "No change", tone: undefined };
    return { text: `${pts > 0 ? "+" : "−"}${Math.abs(pts).toFixed(1)} pts`, tone: pts > 0 === !kpi.upIsBad ? "success" : "critical" };
  }
  if (previous === 0) return current === 0 ? { text: "No change", tone: undefined } : { text: "New", tone: kpi.upIsBad ? "critical" : "success" };
  const pct = Math.round(((current - previous) / previous) * 1000) / 10;
  if (pct === 0) return { text: "No change", tone: undefined };
  return { text: `${pct > 0 ? "+" : "−"}${Math.abs(pct).toFixed(1)}%`, tone: pct > 0 === !kpi.upIsBad ? "success" : "critical" };
}

function kpiValue(kpi: Kpi, figures: AnalyticsFigures, currency: string): string {
  const v = figures[kpi.key];
  if (kpi.kind === "money") return moneyFormat(currency)(v);
  if (kpi.kind === "rate") return percent(num(v));
  return num(v).toLocaleString("en-US");
}

/** The day series of one figure, the previous period's days laid over the current ones (same keys, dashed). */
function lineSeries(a: OrderAnalytics, key: "revenue" | "orders", name: string): ChartSeries[] {
  const series: ChartSeries[] = [{ name, data: a.daily.map((d) => ({ key: d.date, value: num(d[key]) })) }];
  if (a.compare) {
    const prev = a.compare.daily;
    series.push({ name: `Previous period (${longDay(a.compare.from)} – ${longDay(a.compare.to)})`, isComparison: true, data: a.daily.map((d, i) => ({ key: d.date, value: prev[i] ? num(prev[i][key]) : null })) });
  }
  return series;
}

function RangePicker({ range }: { range: { preset: string; from: string; to: string } }) {
  const { setParams } = useListParams({ pageKey: "page", replace: false });
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  return (
    <Card>
      <InlineStack gap="400" blockAlign="end" wrap>
        <ButtonGroup variant="segmented">
          {PRESET_DAYS.map((d) => (
            <Button key={d} pressed={range.preset === String(d)} onClick={() => setParams({ days: String(d), from: null, to: null })}>
              {`Last ${d} days`}
            </Button>
          ))}
        </ButtonGroup>
        <Form method="get">
          <InlineStack gap="200" blockAlign="end">
            <TextField label="From" type="date" name="from" autoComplete="off" value={from} onChange={setFrom} />
            <TextField label="To" type="date" name="to" autoComplete="off" value={to} onChange={setTo} />
            <Button submit pressed={range.preset === "custom"}>
              Apply
            </Button>
          </InlineStack>
        </Form>
      </InlineStack>
    </Card>
  );
}

export default function OrderAnalyticsPage() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const a = data.analytics;
  const currency = a?.currencyCode ?? "USD";
  const money = moneyFormat(currency);
  const axisMoney = compactMoney(currency);
  const count = (v: number | string | null) => num(v ?? 0).toLocaleString("en-US");
  const rangeDays = a ? a.daily.length : 0;
  return (
    <Page
      title="Analytics"
      backAction={{ content: "Orders", url: "/app/orders" }}
      subtitle={a ? `Orders placed ${longDay(a.from)} – ${longDay(a.to)}, days in ${a.timeZone}` : `Days in ${data.timeZone}`}
    >
      <Layout>
        <Layout.Section>
          <div key={`${data.range.preset}:${data.range.from}:${data.range.to}`} data-loading={navigation.state !== "idle" ? "true" : "false"}>
            <RangePicker range={data.range} />
          </div>
        </Layout.Section>
        {data.error ? (
          <Layout.Section>
            <Banner tone="critical" title="This range cannot be shown">
              <p data-testid="analytics-error">{data.error}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {a ? (
          <>
            {a.totals.orders === 0 ? (
              <Layout.Section>
                <Banner tone="info">
                  <p data-testid="analytics-empty">No orders were placed in this range: every figure is zero.</p>
                </Banner>
              </Layout.Section>
            ) : null}
            <Layout.Section>
              <InlineGrid columns={{ xs: 2, md: 3 }} gap="400">
                {KPIS.map((k) => {
                  const change = a.compare ? kpiChange(k, num(a.totals[k.key]), num(a.compare.totals[k.key])) : null;
                  return (
                    <Card key={k.key}>
                      <BlockStack gap="100">
                        <Text as="h3" variant="bodySm" tone="subdued">
                          {k.label}
                        </Text>
                        <Text as="p" variant="headingXl">
                          <span data-testid={`kpi-${k.key}`}>{kpiValue(k, a.totals, currency)}</span>
                        </Text>
                        {change && a.compare ? (
                          <Text as="p" variant="bodySm" tone={change.tone ?? "subdued"}>
                            <span data-testid={`kpi-${k.key}-change`}>{change.text}</span> vs previous {rangeDays} days ({kpiValue(k, a.compare.totals, currency)})
                          </Text>
                        ) : null}
                      </BlockStack>
                    </Card>
                  );
                })}
              </InlineGrid>
            </Layout.Section>
            <Layout.Section variant="oneHalf">
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Revenue by day
                  </Text>
                  <VizChart testId="chart-revenue" series={lineSeries(a, "revenue", "Revenue")} formatValue={money} formatAxisValue={axisMoney} formatKey={shortDay} />
                </BlockStack>
              </Card>
            </Layout.Section>
            <Layout.Section variant="oneHalf">
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Orders by day
                  </Text>
                  <VizChart testId="chart-orders" series={lineSeries(a, "orders", "Orders")} formatValue={count} formatKey={shortDay} integersOnly />
                </BlockStack>
              </Card>
            </Layout.Section>
            <Layout.Section variant="oneHalf">
              <TopCard title="Top products by revenue" testId="chart-top-products" rows={a.topProducts.map((p) => ({ label: p.title, value: num(p.revenue) }))} format={money} axisFormat={axisMoney} />
            </Layout.Section>
            <Layout.Section variant="oneHalf">
              <TopCard title="Top vendors by revenue" testId="chart-top-vendors" rows={a.topVendors.map((v) => ({ label: v.name, value: num(v.revenue) }))} format={money} axisFormat={axisMoney} />
            </Layout.Section>
          </>
        ) : null}
      </Layout>
    </Page>
  );
}

type Formatter = (v: number | string | null) => string;
function TopCard({ title, testId, rows, format, axisFormat }: { title: string; testId: string; rows: { label: string; value: number }[]; format: Formatter; axisFormat: Formatter }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {rows.length === 0 ? (
          <Box paddingBlock="400">
            <Text as="p" tone="subdued">
              <span data-testid={`${testId}-empty`}>No sales in this range.</span>
            </Text>
          </Box>
        ) : (
          // Each bar carries its label above it: about 44 px a row, plus the value axis.
          <VizChart testId={testId} kind="bar" horizontal height={rows.length * 44 + 60} series={[{ name: "Revenue", data: rows.map((r) => ({ key: r.label, value: r.value })) }]} formatValue={format} formatAxisValue={axisFormat} />
        )}
      </BlockStack>
    </Card>
  );
}
