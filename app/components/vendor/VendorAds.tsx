/**
 * A vendor's ads (issues 17 and 18): delivery over a range (KPIs with CTR and ROAS, a daily chart
 * of impressions, clicks or spend), the ads with their status and figures, and the vendor's ad
 * requests. The vendor sees it at /app/vendor/ads, admins at /app/vendors/:id/ads.
 */
import { Link, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, ButtonGroup, Card, DataTable, InlineGrid, InlineStack, Layout, Page, Text, Thumbnail } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { RangePicker, compactMoney, countFormat, longDay, moneyFormat, num, shortDay, type RangeChoice } from "~/components/admin/AnalyticsParts";
import { VizChart } from "~/components/admin/VizChart";
import { NoImage } from "~/components/NoImage";
import { AdRequestStatusBadge, AdStatusBadge, rate, roasText } from "./AdBadges";
import type { AdFigures, AdListRow, AdMetricsView, AdRequestRow } from "./ad-views";
import { VendorTabs } from "./VendorTabs";
import { thumbnailUrl } from "~/client/images";

type ChartMeasure = "impressions" | "clicks" | "spend";
const CHART_MEASURES: { id: ChartMeasure; label: string }[] = [
  { id: "impressions", label: "Impressions" },
  { id: "clicks", label: "Clicks" },
  { id: "spend", label: "Spend" },
];

export interface VendorAdsProps {
  base: string;
  title: string;
  backAction?: { content: string; url: string };
  range: RangeChoice;
  /** The range or the metrics could not be read: the API's message. */
  error: string | null;
  metrics: AdMetricsView | null;
  ads: AdListRow[];
  requests: AdRequestRow[];
  /** A notice of the page's URL (a request just filed). */
  notice?: string | null;
  children?: ReactNode;
}

function AdKpis({ totals, currency }: { totals: AdFigures; currency: string }) {
  const money = moneyFormat(currency);
  const cards: { key: string; label: string; value: string }[] = [
    { key: "impressions", label: "Impressions", value: countFormat(totals.impressions) },
    { key: "clicks", label: "Clicks", value: countFormat(totals.clicks) },
    { key: "ctr", label: "CTR (clicks / impressions)", value: rate(totals.ctr) },
    { key: "spend", label: "Spend", value: money(totals.spend) },
    { key: "purchases", label: "Purchases", value: countFormat(totals.purchases) },
    { key: "roas", label: "ROAS (purchase value / spend)", value: roasText(totals.roas) },
  ];
  return (
    <InlineGrid columns={{ xs: 2, md: 3 }} gap="400">
      {cards.map((c) => (
        <Card key={c.key}>
          <BlockStack gap="100">
            <Text as="h3" variant="bodySm" tone="subdued">
              {c.label}
            </Text>
            <Text as="p" variant="headingXl">
              <span data-testid={`ads-kpi-${c.key}`}>{c.value}</span>
            </Text>
          </BlockStack>
        </Card>
      ))}
    </InlineGrid>
  );
}

export function VendorAds({ base, title, backAction, range, error, metrics, ads, requests, notice, children }: VendorAdsProps) {
  const navigation = useNavigation();
  const [measure, setMeasure] = useState<ChartMeasure>("impressions");
  const currency = metrics?.currencyCode ?? ads[0]?.currencyCode ?? "USD";
  const money = moneyFormat(currency);
  const isMoney = measure === "spend";
  const measureLabel = CHART_MEASURES.find((m) => m.id === measure)?.label ?? "";
  const toReview = ads.filter((a) => a.status === "COMPLETED");
  return (
    <Page title={title} backAction={backAction} primaryAction={{ content: "New request", url: `${base}/ads/requests/new` }}>
      <Layout>
        <Layout.Section>
          <VendorTabs base={base} selected="ads" />
        </Layout.Section>
        {children}
        {notice ? (
          <Layout.Section>
            <Banner tone="success">
              <span data-testid="ads-notice">{notice}</span>
            </Banner>
          </Layout.Section>
        ) : null}
        {toReview.length ? (
          <Layout.Section>
            <Banner tone="warning" title={toReview.length === 1 ? "One ad is ready for your review" : `${toReview.length} ads are ready for your review`}>
              <BlockStack gap="100">
                {toReview.map((a) => (
                  <Link key={a.id} to={`${base}/ads/${a.id}`}>
                    {a.headline || a.productTitle}
                  </Link>
                ))}
              </BlockStack>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <div key={`${range.preset}:${range.from}:${range.to}`} data-loading={navigation.state !== "idle" ? "true" : "false"}>
            <RangePicker range={range} />
          </div>
          {metrics ? (
            <Text as="p" variant="bodySm" tone="subdued">
              {`${longDay(metrics.from)} – ${longDay(metrics.to)}`}
            </Text>
          ) : null}
        </Layout.Section>
        {error ? (
          <Layout.Section>
            <Banner tone="critical" title="The ads' figures cannot be shown">
              <p data-testid="ads-error">{error}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {metrics ? (
          <>
            <Layout.Section>
              <AdKpis totals={metrics.totals} currency={currency} />
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
                      testId="chart-ads-daily"
                      series={[{ name: measureLabel, data: metrics.daily.map((d) => ({ key: d.date, value: num(d[measure]) })) }]}
                      formatValue={isMoney ? money : countFormat}
                      formatAxisValue={isMoney ? compactMoney(currency) : countFormat}
                      formatKey={shortDay}
                      integersOnly={!isMoney}
                      emptyText="No delivery in this range"
                    />
                  </div>
                </BlockStack>
              </Card>
            </Layout.Section>
          </>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <Box padding="400">
              <Text as="h2" variant="headingMd">
                Ads
              </Text>
            </Box>
            {ads.length === 0 ? (
              <Box padding="400" paddingBlockStart="0">
                <Text as="p" tone="subdued">
                  <span data-testid="ads-empty">No ads yet. File a request: the ads team makes the ad from your products and images, and you review it before it goes live.</span>
                </Text>
              </Box>
            ) : (
              <DataTable
                columnContentTypes={["text", "text", "text", "numeric", "numeric", "numeric", "numeric", "numeric"]}
                headings={["Ad", "Product", "Status", "Impressions", "Clicks", "CTR", "Spend", "ROAS"]}
                rows={ads.map((a) => [
                  <InlineStack key="ad" gap="200" blockAlign="center" wrap={false}>
                    {a.image ? <Thumbnail source={thumbnailUrl(a.image)} alt="" size="small" /> : <NoImage width={40} height={40} />}
                    <span data-testid="ad-row" data-ad-id={a.id}>
                      <Link to={`${base}/ads/${a.id}`}>{a.headline || "(no headline yet)"}</Link>
                    </span>
                  </InlineStack>,
                  a.productTitle,
                  <AdStatusBadge key="status" status={a.status} />,
                  a.figures ? countFormat(a.figures.impressions) : "—",
                  a.figures ? countFormat(a.figures.clicks) : "—",
                  a.figures ? rate(a.figures.ctr) : "—",
                  a.figures ? moneyFormat(a.currencyCode)(a.figures.spend) : "—",
                  a.figures ? roasText(a.figures.roas) : "—",
                ])}
              />
            )}
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card padding="0">
            <Box padding="400">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Ad requests
                </Text>
                <Button url={`${base}/ads/requests/new`}>New request</Button>
              </InlineStack>
            </Box>
            {requests.length === 0 ? (
              <Box padding="400" paddingBlockStart="0">
                <Text as="p" tone="subdued">
                  <span data-testid="ad-requests-empty">No requests yet.</span>
                </Text>
              </Box>
            ) : (
              <DataTable
                columnContentTypes={["text", "text", "text", "numeric", "text", "numeric"]}
                headings={["Filed", "Products", "Features", "Daily budget", "Status", "Ads made"]}
                rows={requests.map((r) => [
                  longDay(r.created_at.slice(0, 10)),
                  <span key="products" data-testid="ad-request-row" data-request-id={r.id}>
                    {r.productTitles.join(", ")}
                  </span>,
                  r.featureNames.join(", "),
                  r.dailyBudget ? moneyFormat(r.currencyCode)(r.dailyBudget) : "—",
                  <AdRequestStatusBadge key="status" status={r.status} />,
                  r.adsCount,
                ])}
              />
            )}
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
