/**
 * Pieces of the admin product-ads screens: the status badge, the ads table, the metrics (KPIs and
 * the daily chart), the timeline with its feedback thread, and the progress of a background job.
 */
import { Badge, BlockStack, Box, Card, Grid, InlineStack, ProgressBar, Text, Thumbnail } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { VizChart } from "~/components/admin/VizChart";
import { RowLink } from "~/components/admin/LinkedTitle";
import {
  AD_STATUS_LABEL,
  adTone,
  countText,
  dayText,
  jobActive,
  moneyText,
  pctText,
  ratios,
  roasText,
  utcText,
  type AdDailyView,
  type AdRowView,
  type AdStatus,
  type AdTotalsView,
  type JobProgressView,
  type TimelineEntryView,
} from "~/lib/ads-admin-view";
import { thumbnailUrl } from "~/client/images";

export function AdStatusBadge({ status }: { status: AdStatus }) {
  return (
    <span data-testid="ad-status" data-status={status}>
      <Badge tone={adTone(status)}>{AD_STATUS_LABEL[status]}</Badge>
    </span>
  );
}

const PLACEHOLDER = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'/%3E";

export function AdsTable({ ads, empty, showVendor = true }: { ads: AdRowView[]; empty: string; showVendor?: boolean }) {
  return (
    <ResponsiveIndexTable
      resourceName={{ singular: "ad", plural: "ads" }}
      itemCount={ads.length}
      selectable={false}
      headings={[
        { title: "Ad" },
        { title: "Status" },
        ...(showVendor ? [{ title: "Vendor" }] : []),
        { title: "Budget / day", alignment: "end" as const },
        { title: "Impressions", alignment: "end" as const },
        { title: "Clicks", alignment: "end" as const },
        { title: "Spend", alignment: "end" as const },
        { title: "Updated" },
      ]}
      emptyState={
        <Box padding="400">
          <Text as="p" tone="subdued">
            <span data-testid="ads-empty">{empty}</span>
          </Text>
        </Box>
      }
    >
      {ads.map((a, i) => (
        <ResponsiveRow id={a.id} key={a.id} position={i}>
          <ResponsiveCell>
            <InlineStack gap="200" blockAlign="center" wrap={false}>
              <Thumbnail size="small" source={a.product.image_url ? thumbnailUrl(a.product.image_url) : PLACEHOLDER} alt={a.product.title} />
              <BlockStack gap="050">
                <RowLink to={`/app/ads/${encodeURIComponent(a.id)}`} testId="ad-link" primary>
                  {a.headline || "Untitled ad"}
                </RowLink>
                <Text as="span" tone="subdued" variant="bodySm">
                  {a.product.title}
                </Text>
              </BlockStack>
            </InlineStack>
          </ResponsiveCell>
          <ResponsiveCell>
            <InlineStack gap="100" wrap={false}>
              <AdStatusBadge status={a.status} />
              {a.meta_error ? <Badge tone="critical">Platform error</Badge> : null}
            </InlineStack>
          </ResponsiveCell>
          {showVendor ? <ResponsiveCell>{a.vendor.name}</ResponsiveCell> : null}
          <ResponsiveCell>
            <Text as="span" alignment="end" numeric>
              {moneyText(a.daily_budget)}
            </Text>
          </ResponsiveCell>
          <ResponsiveCell>
            <Text as="span" alignment="end" numeric>
              {countText(a.impressions)}
            </Text>
          </ResponsiveCell>
          <ResponsiveCell>
            <Text as="span" alignment="end" numeric>
              {countText(a.clicks)}
            </Text>
          </ResponsiveCell>
          <ResponsiveCell>
            <Text as="span" alignment="end" numeric>
              {moneyText(a.spend)}
            </Text>
          </ResponsiveCell>
          <ResponsiveCell>{dayText(a.updated_at)}</ResponsiveCell>
        </ResponsiveRow>
      ))}
    </ResponsiveIndexTable>
  );
}

function Kpi({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Grid.Cell columnSpan={{ xs: 3, sm: 2, md: 2, lg: 2, xl: 2 }}>
      <Card>
        <BlockStack gap="100">
          <Text as="p" tone="subdued" variant="bodySm">
            {label}
          </Text>
          <Text as="p" variant="headingLg">
            <span data-testid={`kpi-${testId}`}>{value}</span>
          </Text>
        </BlockStack>
      </Card>
    </Grid.Cell>
  );
}

/** Impressions, clicks, CTR, spend, purchases and ROAS of the stored metrics. */
export function AdKpis({ totals }: { totals: AdTotalsView }) {
  const r = ratios(totals);
  const m = (n: number) => moneyText(n, totals.currencyCode);
  return (
    <Grid>
      <Kpi label="Impressions" value={countText(totals.impressions)} testId="impressions" />
      <Kpi label="Clicks" value={countText(totals.clicks)} testId="clicks" />
      <Kpi label="CTR" value={pctText(r.ctr)} testId="ctr" />
      <Kpi label="Spend" value={m(totals.spend)} testId="spend" />
      <Kpi label="Purchases" value={countText(totals.purchases)} testId="purchases" />
      <Kpi label="ROAS" value={roasText(r.roas)} testId="roas" />
    </Grid>
  );
}

const shortDay = (k: number | string | null) => (k === null ? "" : new Date(`${k}T00:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" }));

/** The daily series: impressions and clicks as lines, spend in its own chart (its scale differs). */
export function AdDailyCharts({ daily, currencyCode }: { daily: AdDailyView[]; currencyCode: string }) {
  // The series has every day of the range, zeros included: nothing delivered shows a sentence, not a flat line.
  if (daily.every((d) => d.impressions === 0 && d.spend === 0))
    return (
      <Text as="p" tone="subdued">
        <span data-testid="ad-metrics-empty">No delivery in these days: metrics appear once the ad has run and they were synced.</span>
      </Text>
    );
  return (
    <BlockStack gap="400">
      <VizChart
        testId="ad-chart-delivery"
        integersOnly
        formatKey={shortDay}
        series={[
          { name: "Impressions", data: daily.map((d) => ({ key: d.date, value: d.impressions })) },
          { name: "Clicks", data: daily.map((d) => ({ key: d.date, value: d.clicks })) },
        ]}
      />
      <VizChart
        testId="ad-chart-spend"
        kind="bar"
        height={180}
        formatKey={shortDay}
        formatValue={(v) => moneyText(Number(v ?? 0), currencyCode)}
        series={[{ name: "Spend", data: daily.map((d) => ({ key: d.date, value: d.spend })) }]}
      />
      {/* The numbers as text too, for whoever cannot read the chart. */}
      <details>
        <summary>Daily figures</summary>
        <table data-testid="ad-daily-table" style={{ width: "100%", borderCollapse: "collapse" }}>
          <thead>
            <tr>
              <th align="left">Day</th>
              <th align="right">Impressions</th>
              <th align="right">Clicks</th>
              <th align="right">Spend</th>
              <th align="right">Purchases</th>
            </tr>
          </thead>
          <tbody>
            {daily.map((d) => (
              <tr key={d.date}>
                <td>{d.date}</td>
                <td align="right">{countText(d.impressions)}</td>
                <td align="right">{countText(d.clicks)}</td>
                <td align="right">{moneyText(d.spend, currencyCode)}</td>
                <td align="right">{countText(d.purchases)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </BlockStack>
  );
}

const EVENT_LABEL: Record<string, string> = {
  created: "Created",
  edited: "Edited",
  complete: "Completed",
  feedback: "Feedback",
  approve: "Approved",
  publish: "Published",
  unpublish: "Unpublished",
  publish_failed: "Publishing failed",
  unpublish_failed: "Pausing failed",
  platform_error: "Ads platform error",
};

/** The ad's history, oldest first; feedback texts stand out as the thread with the vendor. */
export function AdTimeline({ entries }: { entries: TimelineEntryView[] }) {
  if (entries.length === 0)
    return (
      <Text as="p" tone="subdued">
        Nothing recorded yet.
      </Text>
    );
  return (
    <BlockStack gap="300">
      {entries.map((e) => {
        const failed = e.kind.endsWith("_failed") || e.kind === "platform_error";
        const body = (
          <BlockStack gap="050">
            <InlineStack gap="200" blockAlign="center">
              <Text as="span" fontWeight="semibold">
                {EVENT_LABEL[e.kind] ?? e.kind}
              </Text>
              {e.from_status && e.to_status && e.from_status !== e.to_status ? (
                <Text as="span" tone="subdued" variant="bodySm">
                  {AD_STATUS_LABEL[e.from_status]} → {AD_STATUS_LABEL[e.to_status]}
                </Text>
              ) : null}
            </InlineStack>
            {e.text ? (
              <Text as="p" tone={failed ? "critical" : undefined}>
                <span data-testid="ad-event-text">{e.kind === "feedback" ? `“${e.text}”` : e.text}</span>
              </Text>
            ) : null}
            <Text as="p" tone="subdued" variant="bodySm">
              {e.author ?? "System"} · {utcText(e.created_at)}
            </Text>
          </BlockStack>
        );
        return (
          <div key={e.id} data-testid="ad-event" data-kind={e.kind}>
            {e.kind === "feedback" ? (
              <Box background="bg-surface-secondary" padding="200" borderRadius="200">
                {body}
              </Box>
            ) : (
              body
            )}
          </div>
        );
      })}
    </BlockStack>
  );
}

/** A background job's progress while it runs, its error once it failed, nothing once it is done. */
export function JobProgress({ job, label, testId }: { job: JobProgressView | null; label: string; testId: string }) {
  if (!job) return null;
  if (jobActive(job))
    return (
      <div data-testid={testId} data-status={job.status}>
        <BlockStack gap="100">
          <ProgressBar progress={job.progress} size="small" tone="highlight" />
          <Text as="p" tone="subdued" variant="bodySm">
            {job.status === "queued" ? `${label}: waiting to start…` : `${label}… ${job.progress}%`}
          </Text>
        </BlockStack>
      </div>
    );
  if (job.status === "failed")
    return (
      <div data-testid={testId} data-status={job.status}>
        <Text as="p" tone="critical">
          {label} failed: {job.error ?? "no message"}
        </Text>
      </div>
    );
  return (
    <div data-testid={testId} data-status={job.status}>
      <Text as="p" tone="subdued" variant="bodySm">
        {label}: done.
      </Text>
    </div>
  );
}
