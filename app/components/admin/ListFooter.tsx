/** The line under an admin list: which rows show (or how many there are) and the page buttons. */
import { InlineStack, Pagination, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

export interface ListFooterProps {
  summary: ReactNode;
  /** 1-based. */
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  /** "Page 2 of 7" beside the buttons. */
  showPageLabel?: boolean;
}

export function ListFooter({ summary, page, pageCount, onPage, showPageLabel = true }: ListFooterProps) {
  return (
    <div style={{ padding: "12px 16px", borderTop: "1px solid var(--p-color-border-secondary)" }}>
      <InlineStack align="space-between" blockAlign="center">
        <Text as="span" tone="subdued">
          {summary}
        </Text>
        <Pagination
          hasPrevious={page > 1}
          onPrevious={() => onPage(page - 1)}
          hasNext={page < pageCount}
          onNext={() => onPage(page + 1)}
          label={showPageLabel ? `Page ${page} of ${pageCount}` : undefined}
        />
      </InlineStack>
    </div>
  );
}
