/**
 * A product of a list the admin curates (a drop, a style): its picture, its title, one subdued
 * line, and a Remove button when it can be removed.
 */
import { BlockStack, Button, InlineStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { ProductThumb } from "~/components/CatalogueProductPicker";

export interface CuratedProductRowProps {
  product: { title: string; featuredImage?: { url: string; altText?: string | null } | null };
  /** The subdued line under the title. */
  details: ReactNode;
  /** Test id of the span around the title. */
  testId?: string;
  /** Shows the Remove button ("Remove <title>" to screen readers). */
  onRemove?: () => void;
}

export function CuratedProductRow({ product, details, testId, onRemove }: CuratedProductRowProps) {
  return (
    <InlineStack align="space-between" blockAlign="center" wrap={false} gap="200">
      <InlineStack gap="200" blockAlign="center" wrap={false}>
        <ProductThumb url={product.featuredImage?.url} alt={product.featuredImage?.altText ?? product.title} />
        <BlockStack>
          <Text as="span" fontWeight="medium">
            <span data-testid={testId}>{product.title}</span>
          </Text>
          <Text as="span" tone="subdued" variant="bodySm">
            {details}
          </Text>
        </BlockStack>
      </InlineStack>
      {onRemove ? (
        <Button size="slim" variant="plain" tone="critical" accessibilityLabel={`Remove ${product.title}`} onClick={onRemove}>
          Remove
        </Button>
      ) : null}
    </InlineStack>
  );
}
