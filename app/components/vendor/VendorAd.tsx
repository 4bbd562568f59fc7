/**
 * One ad as the vendor reviews it (issue 18): the creatives, headline and primary text as they
 * will run, the timeline with the feedback thread, the moves the vendor may make now (Approve or
 * Send feedback when the ad is ready for review, Unpublish while it is live: the API's
 * allowedMoves), and the ad's delivery once it has any. /app/vendor/ads/:adId for the vendor,
 * /app/vendors/:id/ads/:adId for admins.
 */
import { useFetcher } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, Divider, InlineGrid, InlineStack, Layout, Link as PolarisLink, Page, Text, TextField } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { compactMoney, countFormat, moneyFormat, num, shortDay } from "~/components/admin/AnalyticsParts";
import { ActionBanner, ConfirmModal, FormModal, useFetcherResult, type ActionOutcome } from "~/components/admin";
import { VizChart } from "~/components/admin/VizChart";
import { AD_STATUS_LABEL, AdStatusBadge, rate, roasText } from "./AdBadges";
import type { AdActionResult, AdDetailView, AdMetricsView, AdTimelineEntry } from "./ad-views";

export const FEEDBACK_MAX = 2000;

const CTA_LABEL: Record<string, string> = { SHOP_NOW: "Shop now", LEARN_MORE: "Learn more", SIGN_UP: "Sign up" };

const EVENT_TITLE: Record<string, string> = {
  created: "Ad created",
  edited: "Ad edited",
  complete: "Ready for review",
  feedback: "Changes requested",
  approve: "Approved",
  publish: "Published",
  unpublish: "Unpublished",
  publish_failed: "Publishing failed",
  unpublish_failed: "Unpublishing failed",
  platform_error: "Ads platform error",
};

const when = (iso: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso));

function TimelineItem({ e }: { e: AdTimelineEntry }) {
  const isFeedback = e.kind === "feedback";
  return (
    <Box padding="300" background={isFeedback ? "bg-surface-warning" : undefined} borderRadius="200">
      <BlockStack gap="100">
        <InlineStack align="space-between" wrap>
          <Text as="span" fontWeight="semibold">
            <span data-testid="timeline-kind" data-kind={e.kind}>
              {EVENT_TITLE[e.kind] ?? e.kind}
            </span>
            {e.toStatus && e.fromStatus !== e.toStatus ? ` → ${AD_STATUS_LABEL[e.toStatus].label}` : ""}
          </Text>
          <Text as="span" tone="subdued" variant="bodySm">
            {`${e.author ? `${e.author.name} (${e.author.role === "VENDOR" ? "you" : "ads team"}) · ` : ""}${when(e.created_at)} UTC`}
          </Text>
        </InlineStack>
        {e.text ? (
          <Text as="p">
            <span data-testid="timeline-text" style={{ whiteSpace: "pre-wrap" }}>
              {e.text}
            </span>
          </Text>
        ) : null}
      </BlockStack>
    </Box>
  );
}

function AdMetrics({ metrics }: { metrics: AdMetricsView }) {
  const money = moneyFormat(metrics.currencyCode);
  const t = metrics.totals;
  const cells: [string, string, string][] = [
    ["impressions", "Impressions", countFormat(t.impressions)],
    ["clicks", "Clicks", countFormat(t.clicks)],
    ["ctr", "CTR", rate(t.ctr)],
    ["spend", "Spend", money(t.spend)],
    ["purchases", "Purchases", countFormat(t.purchases)],
    ["roas", "ROAS", roasText(t.roas)],
  ];
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Delivery
        </Text>
        <InlineGrid columns={{ xs: 2, md: 6 }} gap="300">
          {cells.map(([key, label, value]) => (
            <BlockStack key={key} gap="050">
              <Text as="span" variant="bodySm" tone="subdued">
                {label}
              </Text>
              <Text as="span" variant="headingLg">
                <span data-testid={`ad-metric-${key}`}>{value}</span>
              </Text>
            </BlockStack>
          ))}
        </InlineGrid>
        <VizChart
          testId="chart-ad-daily"
          series={[
            { name: "Impressions", data: metrics.daily.map((d) => ({ key: d.date, value: d.impressions })) },
            { name: "Clicks", data: metrics.daily.map((d) => ({ key: d.date, value: d.clicks })) },
          ]}
          formatValue={countFormat}
          formatKey={shortDay}
          integersOnly
        />
        <VizChart
          testId="chart-ad-spend"
          height={160}
          series={[{ name: "Spend", data: metrics.daily.map((d) => ({ key: d.date, value: num(d.spend) })) }]}
          formatValue={money}
          formatAxisValue={compactMoney(metrics.currencyCode)}
          formatKey={shortDay}
        />
      </BlockStack>
    </Card>
  );
}

export interface VendorAdProps {
  title: string;
  backAction: { content: string; url: string };
  ad: AdDetailView;
  metrics: AdMetricsView | null;
  metricsError: string | null;
  children?: ReactNode;
}

export function VendorAd({ title, backAction, ad, metrics, metricsError, children }: VendorAdProps) {
  const fetcher = useFetcher<AdActionResult>();
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const [modal, setModal] = useState<"feedback" | "approve" | "unpublish" | null>(null);
  const [text, setText] = useState("");
  useFetcherResult(fetcher, (r) => {
    setOutcome(r.ok ? { ok: true, message: r.message } : { ok: false, error: r.error });
    if (r.ok) {
      setModal(null);
      setText("");
    }
  });
  const can = (m: AdDetailView["allowedMoves"][number]) => ad.allowedMoves.includes(m);
  const busy = fetcher.state !== "idle";
  const post = (intent: string, fields: Record<string, string> = {}) => fetcher.submit({ intent, ...fields }, { method: "post" });
  const money = moneyFormat(ad.currencyCode);
  const feedback = ad.timeline.filter((e) => e.kind === "feedback");
  const refusal = fetcher.data && !fetcher.data.ok ? { ok: false as const, error: fetcher.data.error } : undefined;
  const hasMetrics = metrics && (metrics.totals.impressions > 0 || num(metrics.totals.spend) > 0);

  const secondaryActions = [
    ...(can("feedback") ? [{ content: "Send feedback", onAction: () => setModal("feedback"), disabled: busy }] : []),
    ...(can("unpublish") ? [{ content: "Unpublish", destructive: true, onAction: () => setModal("unpublish"), disabled: busy }] : []),
  ];
  return (
    <Page
      title={title}
      titleMetadata={<AdStatusBadge status={ad.status} />}
      subtitle={ad.productTitle}
      backAction={backAction}
      primaryAction={can("approve") ? { content: "Approve", onAction: () => setModal("approve"), loading: busy && fetcher.formData?.get("intent") === "approve" } : undefined}
      secondaryActions={secondaryActions}
    >
      <Layout>
        {children}
        {outcome ? (
          <Layout.Section>
            <ActionBanner result={outcome} onDismiss={() => setOutcome(null)} testId="ad-notice" />
          </Layout.Section>
        ) : null}
        {ad.status === "COMPLETED" && can("approve") ? (
          <Layout.Section>
            <Banner tone="warning" title="This ad is ready for your review">
              <p>Approve it to let the team publish it, or send feedback with the changes you want.</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {ad.metaError ? (
          <Layout.Section>
            <Banner tone="critical" title="The ads platform reported a problem">
              <p data-testid="ad-meta-error">{ad.metaError}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                The ad
              </Text>
              {ad.creativeUrls.length ? (
                <InlineStack gap="300">
                  {ad.creativeUrls.map((url) => (
                    <img key={url} src={url} alt="" data-testid="ad-creative" style={{ width: 200, height: 200, objectFit: "cover", borderRadius: 8, border: "1px solid #e3e3e3" }} />
                  ))}
                </InlineStack>
              ) : (
                <Text as="p" tone="subdued">
                  No creatives yet: the team is making them.
                </Text>
              )}
              <Divider />
              <BlockStack gap="100">
                <Text as="span" variant="bodySm" tone="subdued">
                  Headline
                </Text>
                <Text as="p" variant="headingMd">
                  <span data-testid="ad-headline">{ad.headline || "—"}</span>
                </Text>
              </BlockStack>
              <BlockStack gap="100">
                <Text as="span" variant="bodySm" tone="subdued">
                  Primary text
                </Text>
                <Text as="p">
                  <span data-testid="ad-primary-text" style={{ whiteSpace: "pre-wrap" }}>
                    {ad.primaryText || "—"}
                  </span>
                </Text>
              </BlockStack>
              <InlineGrid columns={{ xs: 1, md: 3 }} gap="300">
                <Text as="p">{`Button: ${CTA_LABEL[ad.callToAction] ?? ad.callToAction}`}</Text>
                <Text as="p">{`Daily budget: ${money(ad.dailyBudget)}`}</Text>
                {ad.destinationUrl ? (
                  <PolarisLink url={ad.destinationUrl} target="_blank">
                    Destination page
                  </PolarisLink>
                ) : null}
              </InlineGrid>
            </BlockStack>
          </Card>
        </Layout.Section>
        {hasMetrics && metrics ? (
          <Layout.Section>
            <AdMetrics metrics={metrics} />
          </Layout.Section>
        ) : metricsError ? (
          <Layout.Section>
            <Banner tone="warning">
              <span data-testid="ad-metrics-error">{metricsError}</span>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between">
                <Text as="h2" variant="headingMd">
                  Timeline
                </Text>
                {feedback.length ? <Text as="span" tone="subdued">{`${feedback.length} feedback message${feedback.length === 1 ? "" : "s"}`}</Text> : null}
              </InlineStack>
              <div data-testid="ad-timeline">
                <BlockStack gap="200">
                  {ad.timeline.map((e) => (
                    <TimelineItem key={e.id} e={e} />
                  ))}
                </BlockStack>
              </div>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
      {modal === "feedback" ? (
        <FormModal title="Send feedback" submitLabel="Send feedback" fetcher={{ state: fetcher.state, data: refusal }} onSubmit={() => post("feedback", { text })} onClose={() => setModal(null)}>
          <TextField
            label="What should change?"
            multiline={5}
            autoComplete="off"
            value={text}
            onChange={setText}
            maxLength={FEEDBACK_MAX}
            showCharacterCount
            helpText="The team reworks the ad and sends it back for your review."
          />
        </FormModal>
      ) : null}
      {modal === "approve" ? (
        <ConfirmModal
          open
          title="Approve this ad?"
          confirmLabel="Approve"
          destructive={false}
          error={refusal?.error}
          onConfirm={() => post("approve")}
          onClose={() => setModal(null)}
          loading={busy}
        >
          <Text as="p">The team can then publish it as it is now. You can still pause it while it runs.</Text>
        </ConfirmModal>
      ) : null}
      {modal === "unpublish" ? (
        <ConfirmModal open title="Unpublish this ad?" confirmLabel="Unpublish" error={refusal?.error} onConfirm={() => post("unpublish")} onClose={() => setModal(null)} loading={busy}>
          <Text as="p">The ad stops running and spending. The team can publish it again.</Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}
