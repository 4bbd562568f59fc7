/**
 * A list of products whose order the admin sets and then saves (a collection's members, a store's
 * featured products): the working copy of the order with its unsaved state, the card's header
 * with Discard / Save, the sortable rows (picture, facts, ↑ / ↓, Remove), and the search of the
 * products to add through the page's loader (`?pq=`).
 */
import { useFetcher } from "@remix-run/react";
import { Button, InlineStack, Text } from "@shopify/polaris";
import { useEffect, useState, type ReactNode } from "react";
import { ProductSummary, type ProductSummaryProps } from "./ProductSummary";
import { SortableList } from "./SortableList";
import { useDebouncedInput } from "./useListParams";

/**
 * The order being edited, starting from `stored`; `dirty` while it differs from `stored`. When the
 * stored list changes (after a save, the loader answers it) the working copy starts again from it.
 */
export function useOrderDraft<T extends { id: string }>(stored: T[]) {
  const [items, setItems] = useState<T[]>(stored);
  const storedKey = stored.map((p) => p.id).join(",");
  useEffect(() => setItems(stored), [storedKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const dirty = items.map((p) => p.id).join(",") !== storedKey;
  return { items, setItems, dirty, discard: () => setItems(stored) };
}

/**
 * The products a picker offers: `initial` (from the page's loader) until the admin types, then what
 * `path?pq=<text>` answers in its `picker`, the typing debounced.
 */
export function usePickerSearch<T>(path: string, initial: T[]) {
  const search = useFetcher();
  const query = useDebouncedInput("", (v) => search.load(`${path}?pq=${encodeURIComponent(v)}`));
  const answered = search.data as { picker?: T[] } | undefined;
  return { query, candidates: answered?.picker ?? initial };
}

export interface OrderHeaderProps {
  title: ReactNode;
  dirty: boolean;
  saving: boolean;
  onDiscard: () => void;
  onSave: () => void;
  discardLabel: string;
  saveLabel: string;
}

/** The card's heading, with Discard (only while the order is unsaved) and Save (enabled only then). */
export function OrderHeader({ title, dirty, saving, onDiscard, onSave, discardLabel, saveLabel }: OrderHeaderProps) {
  return (
    <InlineStack align="space-between" blockAlign="center">
      <Text as="h2" variant="headingMd">
        {title}
      </Text>
      <InlineStack gap="200">
        {dirty ? (
          <Button onClick={onDiscard} disabled={saving}>
            {discardLabel}
          </Button>
        ) : null}
        <Button variant="primary" disabled={!dirty} loading={saving} onClick={onSave}>
          {saveLabel}
        </Button>
      </InlineStack>
    </InlineStack>
  );
}

type Product = ProductSummaryProps["product"] & { id: string };

export interface SortableProductsProps<T extends Product> {
  items: T[];
  onChange: (next: T[]) => void;
  /** The list's accessible name. */
  label: string;
  /** Shown instead of the list when it is empty. */
  emptyText: string;
  /** The subdued line of a row. */
  details: (p: T) => ReactNode;
  onRemove: (p: T) => void;
  removeDisabled?: boolean;
  testId?: string;
  itemTestId?: string;
}

/** The products in their order, each with ↑ / ↓ and "Remove <title>". */
export function SortableProducts<T extends Product>({ items, onChange, label, emptyText, details, onRemove, removeDisabled, testId, itemTestId }: SortableProductsProps<T>) {
  if (items.length === 0) return <Text as="p">{emptyText}</Text>;
  return (
    <SortableList
      items={items}
      onChange={onChange}
      label={label}
      testId={testId}
      itemTestId={itemTestId}
      nameOf={(p) => p.title}
      renderItem={(p) => <ProductSummary product={p} details={details(p)} />}
      renderActions={(p) => (
        <Button size="slim" tone="critical" variant="plain" disabled={removeDisabled} onClick={() => onRemove(p)} accessibilityLabel={`Remove ${p.title}`}>
          Remove
        </Button>
      )}
    />
  );
}
