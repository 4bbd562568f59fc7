/**
 * A vendor's home: range presets (7/30/90 days) and a custom range, KPI cards with their change
 * against the previous period, a daily chart of sales, views or try-ons with the previous period
 * dashed, and the top products. The vendor sees it at /app/vendor, admins at /app/vendors/:id
 * (with `actions`, e.g. the commission rate edit).
 */
import { useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, ButtonGroup, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import type { VendorAnalyticsSummary, VendorMeasures, VendorMeasuresDay, VendorTopProducts } from "~/contract/vendor-analytics";
import {
  KpiGrid,
  RangePicker,
  TopCard,
  comparedLineSeries,
  compactMoney,
  countFormat,
  longDay,
  moneyFormat,
  num,
  shortDay,
  type Kpi,
  type RangeChoice,
} from "~/components/admin/AnalyticsParts";
import { VizChart } from "~/components/admin/VizChart";
import { VendorTabs } from "./VendorTabs";

const KPIS: Kpi<keyof VendorMeasures>[] = [
  { key: "revenue", label: "Revenue", kind: "money" },
  { key: "orders", label: "Orders", kind: "count" },
  { key: "units", label: "Units sold", kind: "count" },
  { key: "views", label: "Views", kind: "count" },
  { key: "tryOns", label: "Try-ons", kind: "count" },
  { key: "conversion", label: "Conversion (orders / views)", kind: "rate" },
  { key: "returnRate", label: "Return rate", kind: "rate", upIsBad: true },
];

type ChartMeasure = "revenue" | "views" | "tryOns";
const CHART_MEASURES: { id: ChartMeasure; label: string }[] = [
  { id: "revenue", label: "Sales" },
  { id: "views", label: "Views" },
  { id: "tryOns", label: "Try-ons" },
];

export interface VendorHomeProps {
  base: string;
  title: string;
  subtitle?: string;
  backAction?: { content: string; url: string };
  range: RangeChoice;
  timeZone: string;
  error: string | null;
  summary: VendorAnalyticsSummary | null;
  top: VendorTopProducts | null;
  /** The page's header actions (admins: edit the commission rate). */
  primaryAction?: { content: string; onAction: () => void };
  /** Banners and modals of the page's own actions. */
  children?: ReactNode;
}

export function VendorHome({ base, title, subtitle, backAction, range, timeZone, error, summary: s, top, primaryAction, children }: VendorHomeProps) {
  const navigation = useNavigation();
  const [measure, setMeasure] = useState<ChartMeasure>("revenue");
  const currency = s?.currencyCode ?? "USD";
  const money = moneyFormat(currency);
  const axisMoney = compactMoney(currency);
  const isMoney = measure === "revenue";
  const measureValue = (d: VendorMeasuresDay) => num(d[measure]);
  const measureLabel = CHART_MEASURES.find((m) => m.id === measure)?.label ?? "";
  return (
    <Page title={title} subtitle={subtitle} backAction={backAction} primaryAction={primaryAction} fullWidth={false}>
      <Layout>
        <Layout.Section>
          <VendorTabs base={base} selected="home" />
        </Layout.Section>
        {children}
        <Layout.Section>
          <div key={`${range.preset}:${range.from}:${range.to}`} data-loading={navigation.state !== "idle" ? "true" : "false"}>
            <RangePicker range={range} />
          </div>
          <Text as="p" variant="bodySm" tone="subdued">
            {s ? `${longDay(s.from)} – ${longDay(s.to)}, days in ${s.timeZone}` : `Days in ${timeZone}`}
          </Text>
        </Layout.Section>
        {error ? (
          <Layout.Section>
            <Banner tone="critical" title="This range cannot be shown">
              <p data-testid="analytics-error">{error}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {s ? (
          <>
            {s.totals.views === 0 && s.totals.orders === 0 && s.totals.tryOns === 0 ? (
              <Layout.Section>
                <Banner tone="info">
                  <p data-testid="analytics-empty">No views, try-ons or orders in this range: every figure is zero.</p>
                </Banner>
              </Layout.Section>
            ) : null}
            <Layout.Section>
              <KpiGrid kpis={KPIS} totals={s.totals} previous={s.compare?.totals ?? null} rangeDays={s.daily.length} currency={currency} columns={4} />
            </Layout.Section>
            <Layout.Section>
              <Card>
                <BlockStack gap="300">
                  <InlineStack align="space-between" blockAlign="center">
                    <Text as="h2" variant="headingMd">
                      {`${measureLabel} by day`}
                    </Text>
                    <ButtonGroup variant="segmented">
                      {CHART_MEASURES.map((m) => (
                        <Button key={m.id} pressed={measure === m.id} onClick={() => setMeasure(m.id)}>
                          {m.label}
                        </Button>
                      ))}
                    </ButtonGroup>
                  </InlineStack>
                  <div data-measure={measure}>
                    <VizChart
                      key={measure}
                      testId="chart-vendor-daily"
                      series={comparedLineSeries(measureLabel, s.daily, measureValue, s.compare)}
                      formatValue={isMoney ? money : countFormat}
                      formatAxisValue={isMoney ? axisMoney : countFormat}
                      formatKey={shortDay}
                      integersOnly={!isMoney}
                    />
                  </div>
                </BlockStack>
              </Card>
            </Layout.Section>
            {top ? (
              <Layout.Section>
                <TopCard
                  title="Top products by revenue"
                  testId="chart-top-products"
                  rows={top.items.map((p) => ({
                    label: p.title,
                    value: num(p.measures.revenue),
                  }))}
                  format={money}
                  axisFormat={axisMoney}
                />
              </Layout.Section>
            ) : null}
          </>
        ) : null}
      </Layout>
    </Page>
  );
}
