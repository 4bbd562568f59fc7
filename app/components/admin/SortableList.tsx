/**
 * A list whose order the admin sets: drag a row onto another, or — from the keyboard — the ↑ / ↓
 * buttons of a row ("Move <name> up"). Controlled: `onChange` gets the reordered list (moveItem of
 * ~/lib/reorder) and the page decides when to save it.
 */
import { Box, Button, InlineStack, Text } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { moveItem } from "~/lib/reorder";

export interface SortableListProps<T extends { id: string }> {
  items: T[];
  onChange: (next: T[]) => void;
  /** The list's accessible name. */
  label: string;
  /** What a row is called in its move buttons' labels. */
  nameOf: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  /** More buttons after ↑ / ↓ (e.g. Remove). */
  renderActions?: (item: T, index: number) => ReactNode;
  testId?: string;
  itemTestId?: string;
  /** Tighter rows for a dialog. */
  compact?: boolean;
}

export function SortableList<T extends { id: string }>({ items, onChange, label, nameOf, renderItem, renderActions, testId, itemTestId, compact }: SortableListProps<T>) {
  const [dragging, setDragging] = useState<number | null>(null);
  const move = (from: number, to: number) => onChange(moveItem(items, from, to));
  return (
    <ol style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label={label} data-testid={testId}>
      {items.map((item, i) => (
        <li
          key={item.id}
          draggable
          onDragStart={(e) => {
            setDragging(i);
            e.dataTransfer.effectAllowed = "move";
          }}
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => {
            e.preventDefault();
            if (dragging !== null) move(dragging, i);
            setDragging(null);
          }}
          onDragEnd={() => setDragging(null)}
          style={{ borderTop: i ? "1px solid #e3e3e3" : undefined, padding: compact ? "6px 0" : "8px 0", cursor: "grab", opacity: dragging === i ? 0.5 : 1 }}
          data-testid={itemTestId}
        >
          <InlineStack gap={compact ? "200" : "300"} blockAlign="center" wrap={false}>
            <Text as="span" tone="subdued">
              ⠿ {i + 1}.
            </Text>
            <Box minWidth="0" width="100%">
              {renderItem(item, i)}
            </Box>
            <InlineStack gap="100" wrap={false}>
              <Button size="slim" disabled={i === 0} onClick={() => move(i, i - 1)} accessibilityLabel={`Move ${nameOf(item)} up`}>
                ↑
              </Button>
              <Button size="slim" disabled={i === items.length - 1} onClick={() => move(i, i + 1)} accessibilityLabel={`Move ${nameOf(item)} down`}>
                ↓
              </Button>
              {renderActions?.(item, i)}
            </InlineStack>
          </InlineStack>
        </li>
      ))}
    </ol>
  );
}
