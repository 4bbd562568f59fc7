/**
 * Polaris' IndexTable for admin lists that must fit their card on a phone (issue 20, item 5).
 * Below Polaris' md breakpoint the table is its condensed list: each row one stacked block (the
 * first cell as the row's title line, the other cells wrapped under it) instead of columns wider
 * than the screen with the actions out of reach. On wider screens it is the ordinary table, so a
 * page swaps IndexTable, IndexTable.Row and IndexTable.Cell for these three and keeps its cells.
 */
import { Box, BlockStack, IndexTable, Text, useBreakpoints, type IndexTableProps, type IndexTableRowProps } from "@shopify/polaris";
import { Children, createContext, useContext, type ComponentProps, type CSSProperties } from "react";

const Condensed = createContext(false);

export function ResponsiveIndexTable(props: Omit<IndexTableProps, "condensed">) {
  // False on the server and the first client render (no window), then the real width once hydrated.
  const { smDown } = useBreakpoints();
  return (
    <Condensed.Provider value={smDown}>
      <IndexTable {...props} condensed={smDown} />
    </Condensed.Provider>
  );
}

export function ResponsiveRow({ children, ...props }: IndexTableRowProps) {
  const condensed = useContext(Condensed);
  if (!condensed) return <IndexTable.Row {...props}>{children}</IndexTable.Row>;
  const [title, ...rest] = Children.toArray(children);
  return (
    <IndexTable.Row {...props}>
      <Box padding="300">
        <BlockStack gap="150">
          {title}
          {/* Wrapping, not one line: the secondary data and the actions stay inside the screen. */}
          <div style={{ display: "flex", flexWrap: "wrap", alignItems: "center", columnGap: "var(--p-space-300)", rowGap: "var(--p-space-150)", minWidth: 0 }}>{rest}</div>
        </BlockStack>
      </Box>
    </IndexTable.Row>
  );
}

type CellProps = ComponentProps<typeof IndexTable.Cell> & {
  /** Shown before the value in the stacked layout, where no column heading names it (e.g. "Refund"). */
  label?: string;
  /** Left out of the stacked layout (a value the title line already carries, an empty "—"). */
  hideWhenCondensed?: boolean;
};

export function ResponsiveCell({ children, label, hideWhenCondensed, ...props }: CellProps) {
  const condensed = useContext(Condensed);
  if (!condensed) return <IndexTable.Cell {...props}>{children}</IndexTable.Cell>;
  if (hideWhenCondensed) return null;
  const style: CSSProperties = { minWidth: 0, maxWidth: "100%", overflowWrap: "anywhere" };
  if (!label) return <div style={style}>{children}</div>;
  // The label on the value's line (numbers are block-level, end-aligned Text in the table's cells).
  return (
    <div style={{ ...style, display: "flex", alignItems: "baseline", gap: "var(--p-space-100)" }}>
      <Text as="span" variant="bodySm" tone="subdued">
        {label}:
      </Text>
      {children}
    </div>
  );
}

/** Whether the surrounding ResponsiveIndexTable is stacked (a cell that lays itself out differently on a phone). */
export const useCondensedTable = () => useContext(Condensed);
