/**
 * The ends of an admin list that counts its pages from 0 in the URL (`?page=0` is the first): the
 * footer with the rows shown and the page buttons, and the chart of the page's rows under the list.
 */
import { Layout } from "@shopify/polaris";
import { BarChart } from "~/components/BarChart";
import { rangeLabel } from "~/lib/admin-list";
import { chartLabel } from "./labels";
import { ListFooter } from "./ListFooter";
import { SectionCard } from "./SectionCard";

export interface PagedFooterProps {
  /** 0-based. */
  page: number;
  pageSize: number;
  total: number;
  /** Gets the 0-based page to show. */
  onPage: (page: number) => void;
}

/** "21–40 of 57" and the previous / next buttons. */
export function PagedFooter({ page, pageSize, total, onPage }: PagedFooterProps) {
  return (
    <ListFooter
      summary={rangeLabel(page * pageSize, pageSize, total)}
      page={page + 1}
      pageCount={Math.ceil(total / pageSize)}
      onPage={(p) => onPage(p - 1)}
      showPageLabel={false}
    />
  );
}

/** A Layout section with a bar chart of the page's rows (names shortened for the chart), or nothing when there is no row. */
export function PageChartSection({ title, data }: { title: string; data: { name: string; value: number }[] }) {
  if (data.length === 0) return null;
  return (
    <Layout.Section>
      <SectionCard title={title}>
        <BarChart data={data.map((d) => ({ label: chartLabel(d.name), value: d.value }))} />
      </SectionCard>
    </Layout.Section>
  );
}
