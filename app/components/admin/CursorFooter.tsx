/**
 * The line under a list paged by the API's cursors (`?cursor=`): the summary and the page
 * buttons. Cursors only lead forward, so the cursors of the pages before are kept in the URL
 * (`?trail=`, dot-separated; base64url cursors have no dots, the first page is an empty one) for
 * "previous".
 */
import { InlineStack, Pagination, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useListParams } from "./useListParams";

/** The page's cursor and trail from the URL (a trail without a cursor is stale: a search started over). */
export function cursorParams(sp: URLSearchParams): { cursor: string | null; trail: string[] } {
  const cursor = sp.get("cursor") || null;
  return { cursor, trail: cursor ? (sp.get("trail") ?? "").split(".") : [] };
}

export function CursorFooter({ summary, cursor, trail, nextCursor }: { summary: ReactNode; cursor: string | null; trail: string[]; nextCursor: string | null }) {
  const { setParams } = useListParams({ pageKey: "cursor", replace: false });
  return (
    <div style={{ padding: "12px 16px", borderTop: "1px solid var(--p-color-border-secondary)" }}>
      <InlineStack align="space-between" blockAlign="center">
        <Text as="span" tone="subdued">
          {summary}
        </Text>
        <Pagination
          hasPrevious={cursor !== null}
          onPrevious={() => setParams({ cursor: trail[trail.length - 1] || null, trail: trail.slice(0, -1).join(".") || null })}
          hasNext={nextCursor !== null}
          onNext={() => setParams({ cursor: nextCursor, trail: [...trail, cursor ?? ""].join(".") })}
        />
      </InlineStack>
    </div>
  );
}
