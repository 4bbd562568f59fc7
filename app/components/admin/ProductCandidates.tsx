/**
 * Products to add to a list the admin curates: a search field (its value debounced by the page,
 * which loads the results) and the first twelve results, each with an Add button.
 */
import { Badge, BlockStack, Box, Button, InlineStack, Text, TextField, Thumbnail } from "@shopify/polaris";
import type { ReactNode } from "react";
import { NoImage } from "~/components/NoImage";
import { thumbnailUrl } from "~/client/images";

type Candidate = { id: string; title: string; status?: string; featuredImage: { url: string; altText?: string | null } | null };

export interface ProductCandidatesProps<T extends Candidate> {
  label: string;
  placeholder: string;
  helpText?: string;
  query: { value: string; onChange: (value: string) => void };
  candidates: T[];
  emptyText: string;
  /** Subdued text after the title. */
  details?: (c: T) => ReactNode;
  onAdd: (c: T) => void;
  /** The Add button's accessible name. */
  addLabel: (c: T) => string;
  addDisabled?: boolean;
  isAdding?: (c: T) => boolean;
  maxHeight?: number;
  testId?: string;
}

export function ProductCandidates<T extends Candidate>({ label, placeholder, helpText, query, candidates, emptyText, details, onAdd, addLabel, addDisabled, isAdding, maxHeight = 320, testId }: ProductCandidatesProps<T>) {
  return (
    <BlockStack gap="200">
      <TextField label={label} autoComplete="off" value={query.value} onChange={query.onChange} placeholder={placeholder} clearButton onClearButtonClick={() => query.onChange("")} helpText={helpText} />
      {candidates.length === 0 ? (
        <Text as="p" tone="subdued">
          {emptyText}
        </Text>
      ) : (
        <ul style={{ listStyle: "none", margin: 0, padding: 0, maxHeight, overflowY: "auto" }} data-testid={testId}>
          {candidates.slice(0, 12).map((c) => (
            <li key={c.id} style={{ padding: "6px 0" }}>
              <InlineStack gap="300" blockAlign="center" wrap={false}>
                <Thumbnail size="extraSmall" source={thumbnailUrl(c.featuredImage?.url, 80) || NoImage} alt={c.featuredImage?.altText ?? c.title} />
                <Box width="100%">
                  <Text as="span">{c.title}</Text>
                  {details ? (
                    <Text as="span" tone="subdued" variant="bodySm">
                      {" "}
                      · {details(c)}
                    </Text>
                  ) : null}
                </Box>
                {c.status && c.status !== "active" ? <Badge tone="attention">{c.status}</Badge> : null}
                <Button size="slim" disabled={addDisabled} loading={isAdding?.(c)} onClick={() => onAdd(c)} accessibilityLabel={addLabel(c)}>
                  Add
                </Button>
              </InlineStack>
            </li>
          ))}
        </ul>
      )}
    </BlockStack>
  );
}
