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
import { useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { orderAnalyticsEndpoints, type AnalyticsFigures, type OrderAnalytics } from "~/contract/order-analytics";
import { getAppContext } from "~/context.server";
import { issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { rangeFromSearch } from "~/lib/analytics-range";
import { orderAnalytics } from "~/services/orders/analytics.server";
import { VizChart, vizLinks } from "~/components/admin/VizChart";
import { KpiGrid, RangePicker, TopCard, comparedLineSeries, compactMoney, countFormat, longDay, moneyFormat, num, shortDay, type Kpi } from "~/components/admin/AnalyticsParts";

export const links: LinksFunction = () => vizLinks;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "orders.manage");
  const ctx = getAppContext();
  const timeZone = ctx.config.STORE_TIMEZONE;
  const { asked, range } = rangeFromSearch(new URL(request.url).searchParams, timeZone);
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

const KPIS: Kpi<keyof AnalyticsFigures>[] = [
  { key: "orders", label: "Orders", kind: "count" },
  { key: "revenue", label: "Revenue", kind: "money" },
  { key: "averageOrderValue", label: "Average order value", kind: "money" },
  { key: "units", label: "Units sold", kind: "count" },
  { key: "returnRate", label: "Return rate", kind: "rate", upIsBad: true },
  { key: "cancelRate", label: "Cancel rate", kind: "rate", upIsBad: true },
];

/** The day series of one figure, the previous period's days laid over the current ones (same keys, dashed). */
const lineSeries = (a: OrderAnalytics, key: "revenue" | "orders", name: string) => comparedLineSeries(name, a.daily, (d) => num(d[key]), a.compare);

export default function OrderAnalyticsPage() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const a = data.analytics;
  const currency = a?.currencyCode ?? "USD";
  const money = moneyFormat(currency);
  const axisMoney = compactMoney(currency);
  const count = countFormat;
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
              <KpiGrid kpis={KPIS} totals={a.totals} previous={a.compare?.totals ?? null} rangeDays={rangeDays} currency={currency} />
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
