/**
 * Charts of the admin and vendor pages, drawn by @shopify/polaris-viz (Shopify's chart library for
 * Polaris apps). polaris-viz reads `navigator` and measures its container while rendering, so it
 * cannot render on the server: the server (and the first client render, so hydration matches) draws
 * a placeholder of the chart's height, and the chart replaces it once the page runs in the browser.
 * Charts carry their numbers as text too (polaris-viz's own hidden table for screen readers).
 *
 * Pages that use these charts add `vizLinks` to their `links` for the library's stylesheet.
 */
import { useEffect, useState } from "react";
import type { LinksFunction } from "@remix-run/node";
import { BarChart, LineChart, PolarisVizProvider } from "@shopify/polaris-viz";
import vizStyles from "@shopify/polaris-viz/build/esm/styles.css?url";
import { Box, SkeletonBodyText } from "@shopify/polaris";

export const vizLinks: ReturnType<LinksFunction> = [{ rel: "stylesheet", href: vizStyles }];

/** One named series of points keyed by a label (a day "2026-11-02", a product title…). */
export interface ChartSeries {
  name: string;
  data: { key: string; value: number | null }[];
  /** A dashed line: the previous period of a comparison. */
  isComparison?: boolean;
}

export interface VizChartProps {
  series: ChartSeries[];
  /** "line" for daily series, "bar" for values people compare side by side. */
  kind?: "line" | "bar";
  /** Horizontal bars (long labels such as product titles). */
  horizontal?: boolean;
  height?: number;
  /** Formats the values in the tooltip, and on the axis unless formatAxisValue is given (money, percentages). */
  formatValue?: (value: number | string | null) => string;
  /** Formats the values on the axis when they need a shorter form than in the tooltip ("$1.2K"). */
  formatAxisValue?: (value: number | string | null) => string;
  /** Formats the keys on the axis and in the tooltip's title (a day "2026-11-02" as "Nov 2"). */
  formatKey?: (key: number | string | null) => string;
  /** Whole numbers only on the value axis (counts). */
  integersOnly?: boolean;
  /** Shown inside the chart when no series has a point. */
  emptyText?: string;
  testId?: string;
}

function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

// polaris-viz hands formatters a value typed as string | number | null; the props say the same.
const asLabel = (f: ((v: number | string | null) => string) | undefined) => (f ? { labelFormatter: f } : {});

export function VizChart({ series, kind = "line", horizontal = false, height = 240, formatValue, formatAxisValue, formatKey, integersOnly, emptyText, testId }: VizChartProps) {
  const hydrated = useHydrated();
  // The value axis is y, except for horizontal bars where the keys (labels) run down the y axis.
  const valueAxis = { ...asLabel(formatAxisValue ?? formatValue), ...(integersOnly ? { integersOnly: true } : {}) };
  // A legend names series apart: one series is named by the card's title already.
  const showLegend = series.length > 1;
  const keyAxis = asLabel(formatKey);
  const tooltipOptions = { ...(formatValue ? { valueFormatter: formatValue } : {}), ...(formatKey ? { titleFormatter: formatKey } : {}) };
  return (
    <div data-testid={testId} data-chart-ready={hydrated ? "true" : "false"} style={{ height }}>
      {hydrated ? (
        <PolarisVizProvider>
          {kind === "line" ? (
            <LineChart data={series} theme="Light" showLegend={showLegend} xAxisOptions={keyAxis} yAxisOptions={valueAxis} tooltipOptions={tooltipOptions} emptyStateText={emptyText} />
          ) : (
            <BarChart
              data={series}
              theme="Light"
              direction={horizontal ? "horizontal" : "vertical"}
              showLegend={showLegend}
              xAxisOptions={horizontal ? valueAxis : keyAxis}
              yAxisOptions={horizontal ? keyAxis : valueAxis}
              tooltipOptions={tooltipOptions}
              emptyStateText={emptyText}
            />
          )}
        </PolarisVizProvider>
      ) : (
        <Box padding="400">
          <SkeletonBodyText lines={6} />
        </Box>
      )}
    </div>
  );
}
