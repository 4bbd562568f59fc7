/**
 * Pieces shared by the analytics pages (the admin's order analytics, the vendor home): the range
 * picker (presets and a custom range in the URL), KPI cards with their change against the previous
 * period, the formatters of money, counts, rates and days, and the top-N bar card.
 */
import { Form } from "@remix-run/react";
import { BlockStack, Box, Button, ButtonGroup, Card, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { VizChart, type ChartSeries } from "./VizChart";
import { useListParams } from "./useListParams";

export const PRESET_DAYS = [7, 30, 90] as const;

export type Formatter = (v: number | string | null) => string;

export const num = (v: string | number) => (typeof v === "number" ? v : Number(v));
export const moneyFormat = (currency: string): Formatter => {
  const f = new Intl.NumberFormat("en-US", { style: "currency", currency });
  return (v) => f.format(num(v ?? 0));
};
export const percent = (v: number) => `${(v * 100).toFixed(1)}%`;
/** Axis ticks: "$1.2K" rather than "$1,200.00", so a narrow card keeps them level. */
export const compactMoney = (currency: string): Formatter => {
  const f = new Intl.NumberFormat("en-US", { style: "currency", currency, notation: "compact", maximumFractionDigits: 1 });
  return (v) => f.format(num(v ?? 0));
};
export const countFormat: Formatter = (v) => num(v ?? 0).toLocaleString("en-US");
export const shortDay: Formatter = (v) => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }).format(new Date(`${v}T00:00:00Z`));
export const longDay = (day: string) => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));

export type Kpi<K extends string> = { key: K; label: string; kind: "count" | "money" | "rate"; /** A rise is bad news (returns, cancellations). */ upIsBad?: boolean };

/**
 * A figure's change against the previous period: counts and amounts as a percentage of the
 * previous value, rates in percentage points (a rate's percentage of a rate reads wrongly).
 */
export function kpiChange<K extends string>(kpi: Kpi<K>, current: number, previous: number): { text: string; tone: "success" | "critical" | undefined } {
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

export function kpiValue<K extends string>(kpi: Kpi<K>, figures: Record<K, number | string>, currency: string): string {
  const v = figures[kpi.key];
  if (kpi.kind === "money") return moneyFormat(currency)(v);
  if (kpi.kind === "rate") return percent(num(v));
  return num(v).toLocaleString("en-US");
}

/** The KPI cards: each figure, and when a comparison is given its change and the previous value. */
export function KpiGrid<K extends string>({
  kpis,
  totals,
  previous,
  rangeDays,
  currency,
  columns = 3,
}: {
  kpis: Kpi<K>[];
  totals: Record<K, number | string>;
  previous: Record<K, number | string> | null;
  rangeDays: number;
  currency: string;
  columns?: number;
}) {
  return (
    <InlineGrid columns={{ xs: 2, md: columns }} gap="400">
      {kpis.map((k) => {
        const change = previous ? kpiChange(k, num(totals[k.key]), num(previous[k.key])) : null;
        return (
          <Card key={k.key}>
            <BlockStack gap="100">
              <Text as="h3" variant="bodySm" tone="subdued">
                {k.label}
              </Text>
              <Text as="p" variant="headingXl">
                <span data-testid={`kpi-${k.key}`}>{kpiValue(k, totals, currency)}</span>
              </Text>
              {change && previous ? (
                <Text as="p" variant="bodySm" tone={change.tone ?? "subdued"}>
                  <span data-testid={`kpi-${k.key}-change`}>{change.text}</span> vs previous {rangeDays} days ({kpiValue(k, previous, currency)})
                </Text>
              ) : null}
            </BlockStack>
          </Card>
        );
      })}
    </InlineGrid>
  );
}

/**
 * A day series and, when the previous period is given, its days laid over the current ones (same
 * keys, dashed), named with the previous period's dates.
 */
export function comparedLineSeries<D extends { date: string }>(
  name: string,
  daily: D[],
  value: (d: D) => number,
  previous: { from: string; to: string; daily: D[] } | null,
): ChartSeries[] {
  const series: ChartSeries[] = [{ name, data: daily.map((d) => ({ key: d.date, value: value(d) })) }];
  if (previous) {
    const prev = previous.daily;
    series.push({ name: `Previous period (${longDay(previous.from)} – ${longDay(previous.to)})`, isComparison: true, data: daily.map((d, i) => ({ key: d.date, value: prev[i] ? value(prev[i]) : null })) });
  }
  return series;
}

export type RangeChoice = { preset: string; from: string; to: string };

/** The presets (last 7, 30, 90 days) and a custom from–to range, kept in the URL. */
export function RangePicker({ range }: { range: RangeChoice }) {
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

/** A card of horizontal bars (top products, top vendors), or a line saying the range has none. */
export function TopCard({ title, testId, rows, format, axisFormat, seriesName = "Revenue", emptyText = "No sales in this range." }: { title: string; testId: string; rows: { label: string; value: number }[]; format: Formatter; axisFormat?: Formatter; seriesName?: string; emptyText?: string }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {rows.length === 0 ? (
          <Box paddingBlock="400">
            <Text as="p" tone="subdued">
              <span data-testid={`${testId}-empty`}>{emptyText}</span>
            </Text>
          </Box>
        ) : (
          // Each bar carries its label above it: about 44 px a row, plus the value axis.
          <VizChart testId={testId} kind="bar" horizontal height={rows.length * 44 + 60} series={[{ name: seriesName, data: rows.map((r) => ({ key: r.label, value: r.value })) }]} formatValue={format} formatAxisValue={axisFormat ?? format} />
        )}
      </BlockStack>
    </Card>
  );
}
