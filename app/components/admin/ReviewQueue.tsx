/**
 * The page half of a review queue (proposed variant images, proposed image edits): status tabs,
 * the row and bulk fetchers with the banner of whichever answered last, the buttons of a selectable
 * row, the empty list and the side-by-side comparison dialog. The server half is app/lib/review-queue-action.server.ts.
 */
import type { SerializeFrom } from "@remix-run/node";
import { useFetcher } from "@remix-run/react";
import { BlockStack, Box, InlineStack, Modal, Text } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { useBulkSelection, useFetcherResult, useRowAction } from "./useActionFetchers";

export const REVIEW_TABS = [
  { id: "pending", label: "Pending" },
  { id: "approved", label: "Approved" },
  { id: "rejected", label: "Rejected" },
  { id: "all", label: "All" },
] as const;
export const REVIEW_STATUS_LABEL = { pending: "Pending", approved: "Approved", rejected: "Rejected" } as const;
export const reviewStatusTone = (s: string) => (s === "approved" ? "success" : s === "rejected" ? "critical" : "attention");

/**
 * One fetcher for row actions (`act(intent, id)`), one for bulk actions on the selected rows
 * (`bulkActions` for IndexTable's promotedBulkActions), and `result`: the answer that came last.
 * `onRowResult` also gets each answer of a row action.
 */
export function useReviewQueue<A>(items: { id: string }[], onRowResult?: (r: SerializeFrom<A>) => void) {
  const row = useRowAction<A>();
  const bulk = useFetcher<A>();
  const selection = useBulkSelection(items, bulk as unknown as Parameters<typeof useBulkSelection>[1]);
  const [result, setResult] = useState<SerializeFrom<A> | undefined>(undefined);
  useFetcherResult<SerializeFrom<A>>(bulk, setResult);
  useFetcherResult<SerializeFrom<A>>(row.fetcher, (r) => {
    setResult(r);
    onRowResult?.(r);
  });
  const bulkActions = [
    { content: "Approve selected", onAction: () => selection.submit("bulk-approve") },
    { content: "Reject selected", onAction: () => selection.submit("bulk-reject") },
  ];
  return { act: row.act, isBusy: row.isBusy, bulk, selection, bulkActions, result };
}

/** The buttons of a selectable row: a click on them does not toggle the row's selection. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <div onClick={(e) => e.stopPropagation()} role="presentation">
      <InlineStack gap="200" wrap={false}>
        {children}
      </InlineStack>
    </div>
  );
}

/** What an empty queue says, with an optional way onwards under it. */
export function QueueEmptyState({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <Box padding="600">
      <BlockStack gap="200" inlineAlign="center">
        <Text as="p">{text}</Text>
        {children}
      </BlockStack>
    </Box>
  );
}

export interface CompareModalProps {
  title: string;
  /** The large side-by-side images. */
  images: ReactNode;
  /** Approve (then close); no button without it. */
  onApprove?: () => void;
  /** Reject (then close); no button without it. */
  onReject?: () => void;
  rejectDestructive?: boolean;
  onClose: () => void;
  /** Facts under the images. */
  children: ReactNode;
}

export function CompareModal({ title, images, onApprove, onReject, rejectDestructive, onClose, children }: CompareModalProps) {
  const thenClose = (f: () => void) => () => {
    f();
    onClose();
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={title}
      primaryAction={onApprove ? { content: "Approve", onAction: thenClose(onApprove) } : undefined}
      secondaryActions={[
        ...(onReject ? [{ content: "Reject", ...(rejectDestructive ? { destructive: true } : {}), onAction: thenClose(onReject) }] : []),
        { content: "Done", onAction: onClose },
      ]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          <div data-testid="compare-images">{images}</div>
          {children}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
