/**
 * A vendor's payouts: one row per monthly period (gross, refunds, commission, net, status, paid
 * date, reference) between two months picked above them (a GET form: `?from=YYYY-MM&to=YYYY-MM`,
 * the API's range; empty fields are the API's defaults), a chart of the net per period, and the
 * CSV download of the same range. Admins (`canMarkPaid`)
 * mark a pending payout paid with the transfer's reference: `{ intent: "mark-paid", id, reference }`
 * to the route's action.
 */
import { Form, useFetcher } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineGrid, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useEffect, useState } from "react";
import type { VendorPayout, VendorPayouts as Payouts } from "~/contract/vendors";
import { ActionBannerSection, FormModal, useFetcherResult, type ActionOutcome } from "~/components/admin";
import { compactMoney, moneyFormat, num } from "~/components/admin/AnalyticsParts";
import { VizChart } from "~/components/admin/VizChart";
import { VendorTabs } from "./VendorTabs";

const STATUS_TONE: Record<string, "success" | "attention" | "info" | "critical" | undefined> = { paid: "success", pending: "attention", open: "info", failed: "critical" };
const STATUS_LABEL: Record<string, string> = {
  paid: "Paid",
  pending: "Pending",
  open: "Open (this month)",
  failed: "Failed",
};

const monthLabel = (period: string) =>
  new Intl.DateTimeFormat("en-US", {
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${period}-01T00:00:00Z`));
const dateLabel = (iso: string | null) =>
  iso
    ? new Intl.DateTimeFormat("en-US", {
        month: "short",
        day: "numeric",
        year: "numeric",
        timeZone: "UTC",
      }).format(new Date(iso))
    : "—";

/**
 * Fetches the CSV and saves it (inside the Shopify admin, App Bridge adds the session token to
 * fetch; a plain link would open without it). Answers the error to show, or null.
 */
async function downloadCsv(url: string): Promise<string | null> {
  const res = await fetch(url).catch(() => null);
  if (!res) return "The download failed: the app could not be reached";
  if (!res.ok) return `The download failed (HTTP ${res.status})`;
  // A signed-out session is sent to the login page: that is no CSV.
  if (!(res.headers.get("content-disposition") ?? "").startsWith("attachment")) return "Your session has ended: sign in again to download";
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "payouts.csv";
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return null;
}

export type MarkPaidResult = ({ ok: true; message: string } | { ok: false; error: string }) & { intent: "mark-paid" };

export interface VendorPayoutsProps {
  base: string;
  title: string;
  backAction?: { content: string; url: string };
  payouts: Payouts | null;
  error: string | null;
  /** The CSV of the range shown (the page adds `from` and `to`). */
  csvUrl: string;
  /** The months asked in the URL ("" when not given). */
  range: { from: string; to: string };
  canMarkPaid?: boolean;
}

/** The range picker: the months asked (or, when none were, the range the answer covers). */
function RangePicker({ range, shown, csvHref }: { range: { from: string; to: string }; shown: { from: string; to: string } | null; csvHref: string }) {
  const initial = { from: range.from || shown?.from || "", to: range.to || shown?.to || "" };
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  // A new URL (back, forward, a link) resets the fields to what it asks.
  useEffect(() => {
    setFrom(initial.from);
    setTo(initial.to);
  }, [initial.from, initial.to]);
  return (
    <Card>
      <Form method="get" data-testid="payouts-range" data-csv-url={csvHref}>
        <InlineStack gap="300" blockAlign="end" wrap>
          <div style={{ minWidth: 160 }}>
            <TextField label="From month" type="month" name="from" value={from} onChange={setFrom} autoComplete="off" placeholder="YYYY-MM" />
          </div>
          <div style={{ minWidth: 160 }}>
            <TextField label="To month" type="month" name="to" value={to} onChange={setTo} autoComplete="off" placeholder="YYYY-MM" />
          </div>
          <Button submit>Show</Button>
          <Button url="?">Last 12 months</Button>
        </InlineStack>
      </Form>
    </Card>
  );
}

export function VendorPayouts({ base, title, backAction, payouts, error, csvUrl, range, canMarkPaid }: VendorPayoutsProps) {
  const [marking, setMarking] = useState<VendorPayout | null>(null);
  const [notice, setNotice] = useState<ActionOutcome | null>(null);
  const [downloading, setDownloading] = useState(false);
  const money = moneyFormat(payouts?.currencyCode ?? "USD");
  const axisMoney = compactMoney(payouts?.currencyCode ?? "USD");
  const items = payouts?.items ?? [];
  // The chart runs left to right in time; the table lists the newest period first.
  const chronological = [...items].reverse();
  const csvRange = payouts ? { from: payouts.from, to: payouts.to } : range;
  const csvHref = `${csvUrl}?${new URLSearchParams(Object.entries(csvRange).filter(([, v]) => v))}`;
  return (
    <Page
      title={title}
      backAction={backAction}
      secondaryActions={[
        {
          content: "Download CSV",
          id: "payouts-csv",
          loading: downloading,
          onAction: () => {
            setDownloading(true);
            void downloadCsv(csvHref).then((error) => {
              setDownloading(false);
              if (error) setNotice({ ok: false, error });
            });
          },
        },
      ]}
    >
      <Layout>
        <Layout.Section>
          <VendorTabs base={base} selected="payouts" />
        </Layout.Section>
        <Layout.Section>
          <RangePicker range={range} shown={payouts ? { from: payouts.from, to: payouts.to } : null} csvHref={csvHref} />
        </Layout.Section>
        <ActionBannerSection result={notice} onDismiss={() => setNotice(null)} testId="payout-notice" />
        {error ? (
          <Layout.Section>
            <Banner tone="critical">
              <p data-testid="payouts-error">{error}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {payouts ? (
          <>
            <Layout.Section>
              <InlineGrid columns={{ xs: 2, md: 4 }} gap="400">
                {(
                  [
                    ["Gross sales", payouts.totals.gross],
                    ["Commission", payouts.totals.commission],
                    ["Paid", payouts.totals.paid],
                    ["Pending", payouts.totals.pending],
                  ] as const
                ).map(([label, value]) => (
                  <Card key={label}>
                    <BlockStack gap="100">
                      <Text as="h3" variant="bodySm" tone="subdued">
                        {label}
                      </Text>
                      <Text as="p" variant="headingLg">
                        {money(value)}
                      </Text>
                    </BlockStack>
                  </Card>
                ))}
              </InlineGrid>
            </Layout.Section>
            <Layout.Section>
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Net per period
                  </Text>
                  <VizChart
                    testId="chart-payouts-net"
                    kind="bar"
                    series={[
                      {
                        name: "Net",
                        data: chronological.map((p) => ({
                          key: monthLabel(p.period),
                          value: num(p.net),
                        })),
                      },
                    ]}
                    formatValue={money}
                    formatAxisValue={axisMoney}
                    emptyText="No payouts in this range."
                  />
                </BlockStack>
              </Card>
            </Layout.Section>
            <Layout.Section>
              <Card padding="0">
                <ResponsiveIndexTable
                  resourceName={{ singular: "payout", plural: "payouts" }}
                  itemCount={items.length}
                  selectable={false}
                  headings={[
                    { title: "Period" },
                    { title: "Gross", alignment: "end" as const },
                    { title: "Refunds", alignment: "end" as const },
                    { title: "Commission", alignment: "end" as const },
                    { title: "Net", alignment: "end" as const },
                    { title: "Status" },
                    { title: "Paid" },
                    { title: "Reference" },
                    ...(canMarkPaid ? [{ title: "" }] : []),
                  ]}
                  emptyState={
                    <Text as="p" alignment="center">
                      No payouts yet.
                    </Text>
                  }
                >
                  {items.map((p, i) => (
                    <ResponsiveRow id={p.id ?? `open-${p.period}`} key={p.id ?? `open-${p.period}`} position={i}>
                      <ResponsiveCell>
                        <Text as="span" fontWeight="semibold">
                          {monthLabel(p.period)}
                        </Text>
                        <Text as="span" tone="subdued" variant="bodySm">{` ${p.commissionRate}%`}</Text>
                      </ResponsiveCell>
                      {[p.gross, p.refunds, p.commission, p.net].map((v, j) => (
                        <ResponsiveCell key={j}>
                          <Text as="span" alignment="end" numeric>
                            {money(v)}
                          </Text>
                        </ResponsiveCell>
                      ))}
                      <ResponsiveCell>
                        <span data-testid="payout-status" data-status={p.status} data-period={p.period}>
                          <Badge tone={STATUS_TONE[p.status]}>{STATUS_LABEL[p.status] ?? p.status}</Badge>
                        </span>
                      </ResponsiveCell>
                      <ResponsiveCell>{dateLabel(p.paid_at)}</ResponsiveCell>
                      <ResponsiveCell>{p.reference ?? "—"}</ResponsiveCell>
                      {canMarkPaid ? (
                        <ResponsiveCell>
                          {p.status === "pending" && p.id ? (
                            <Button size="slim" onClick={() => setMarking(p)} accessibilityLabel={`Mark ${monthLabel(p.period)} paid`}>
                              Mark paid
                            </Button>
                          ) : null}
                        </ResponsiveCell>
                      ) : null}
                    </ResponsiveRow>
                  ))}
                </ResponsiveIndexTable>
              </Card>
            </Layout.Section>
          </>
        ) : null}
      </Layout>
      {marking ? (
        <MarkPaidModal
          payout={marking}
          net={money(marking.net)}
          onClose={() => setMarking(null)}
          onDone={(message) => {
            setMarking(null);
            setNotice({ ok: true, message });
          }}
        />
      ) : null}
    </Page>
  );
}

function MarkPaidModal({ payout, net, onClose, onDone }: { payout: VendorPayout; net: string; onClose: () => void; onDone: (message: string) => void }) {
  const fetcher = useFetcher<MarkPaidResult>();
  const [reference, setReference] = useState("");
  const data = fetcher.data;
  // The page closes the modal with its notice on success; the modal shows a refusal itself.
  const answered = {
    state: fetcher.state,
    data: data && !data.ok ? { ok: false as const, error: data.error } : undefined,
  };
  useFetcherResult(fetcher, (r) => r.ok && onDone(r.message));
  return (
    <FormModal
      title={`Mark ${monthLabel(payout.period)} paid`}
      submitLabel="Mark paid"
      fetcher={answered}
      onSubmit={() => fetcher.submit({ intent: "mark-paid", id: payout.id ?? "", reference }, { method: "post" })}
      onClose={onClose}
    >
      <Text as="p">{`Net ${net} to the vendor. Paid payouts keep their figures.`}</Text>
      <TextField label="Reference" autoComplete="off" value={reference} onChange={setReference} helpText="The transfer's reference, as the bank shows it." />
    </FormModal>
  );
}
