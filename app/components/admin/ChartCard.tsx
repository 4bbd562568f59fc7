/** A chart of an admin page in its own card: a small heading, the bars, and a note under them. */
import { BlockStack, Card, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { BarChart } from "~/components/BarChart";

export interface ChartCardProps {
  title: string;
  data: { label: string; value: number }[];
  /** Shown (subdued) instead of the chart while there is no bar; without it an empty chart shows. */
  empty?: string;
  /** Wraps the chart in an element with this test id. */
  testId?: string;
  /** A subdued line under the chart (a rate, a total). */
  note?: ReactNode;
}

export function ChartCard({ title, data, empty, testId, note }: ChartCardProps) {
  const chart = <BarChart data={data} />;
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingSm">
          {title}
        </Text>
        {empty !== undefined && data.length === 0 ? (
          <Text as="p" tone="subdued">
            {empty}
          </Text>
        ) : testId ? (
          <div data-testid={testId}>{chart}</div>
        ) : (
          chart
        )}
        {note ? (
          <Text as="p" tone="subdued">
            {note}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}
