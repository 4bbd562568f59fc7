/**
 * Polaris' IndexTable for admin lists that must fit their card on a phone (issue 20, item 5).
 * Below Polaris' md breakpoint the table is its condensed list: each row one stacked block (the
 * first cell as the row's title line, the other cells wrapped under it) instead of columns wider
 * than the screen with the actions out of reach. On wider screens it is the ordinary table, so a
 * page swaps IndexTable, IndexTable.Row and IndexTable.Cell for these three and keeps its cells.
 */
import { Box, BlockStack, IndexTable, InlineStack, Text, useBreakpoints, type IndexTableProps, type IndexTableRowProps } from "@shopify/polaris";
import { Children, createContext, useContext, type ComponentProps, type CSSProperties } from "react";

type Heading = IndexTableProps["headings"][number];

/** Null when the table is not stacked; otherwise its headings (the labels of stacked numbers). */
const Condensed = createContext<Heading[] | null>(null);
/** The heading of the column a stacked cell came from. */
const CellHeading = createContext<Heading | undefined>(undefined);

export function ResponsiveIndexTable(props: Omit<IndexTableProps, "condensed">) {
  // False on the server and the first client render (no window), then the real width once hydrated.
  const { smDown } = useBreakpoints();
  return (
    <Condensed.Provider value={smDown ? props.headings : null}>
      <IndexTable {...props} condensed={smDown} />
    </Condensed.Provider>
  );
}

type RowProps = IndexTableRowProps & {
  /** How many leading cells make the stacked row's title line (2: a thumbnail column, then the title). */
  titleCells?: number;
};

export function ResponsiveRow({ children, titleCells = 1, ...props }: RowProps) {
  const headings = useContext(Condensed);
  if (!headings) return <IndexTable.Row {...props}>{children}</IndexTable.Row>;
  const cells = Children.toArray(children);
  // A cell left out conditionally shifts the columns: then no heading is trusted as a label.
  const labelled = cells.length === headings.length;
  const stacked = cells.map((cell, i) => (
    <CellHeading.Provider key={i} value={labelled ? headings[i] : undefined}>
      {cell}
    </CellHeading.Provider>
  ));
  return (
    <IndexTable.Row {...props}>
      <Box padding="300">
        <BlockStack gap="150">
          <InlineStack gap="300" blockAlign="center" wrap={false}>
            {stacked.slice(0, titleCells)}
          </InlineStack>
          {/* Wrapping, not one line: the secondary data and the actions stay inside the screen. */}
          <div style={{ display: "flex", flexWrap: "wrap", alignItems: "center", columnGap: "var(--p-space-300)", rowGap: "var(--p-space-150)", minWidth: 0 }}>{stacked.slice(titleCells)}</div>
        </BlockStack>
      </Box>
    </IndexTable.Row>
  );
}

type CellProps = ComponentProps<typeof IndexTable.Cell> & {
  /**
   * Shown before the value in the stacked layout. By default a number column's heading (one aligned
   * to the end): a bare "12" under a row says nothing, while badges and names speak for themselves.
   */
  label?: string;
  /** Left out of the stacked layout (a value the title line already carries, an empty "—"). */
  hideWhenCondensed?: boolean;
};

export function ResponsiveCell({ children, label, hideWhenCondensed, ...props }: CellProps) {
  const condensed = useContext(Condensed) !== null;
  const heading = useContext(CellHeading);
  if (!condensed) return <IndexTable.Cell {...props}>{children}</IndexTable.Cell>;
  if (hideWhenCondensed) return null;
  const shownLabel = label ?? (heading?.alignment === "end" && heading.title ? heading.title : undefined);
  const style: CSSProperties = { minWidth: 0, maxWidth: "100%", overflowWrap: "anywhere" };
  if (!shownLabel) return <div style={style}>{children}</div>;
  // The label on the value's line (numbers are block-level, end-aligned Text in the table's cells).
  return (
    <div style={{ ...style, display: "flex", alignItems: "baseline", gap: "var(--p-space-100)" }}>
      <Text as="span" variant="bodySm" tone="subdued">
        {shownLabel}:
      </Text>
      {children}
    </div>
  );
}
