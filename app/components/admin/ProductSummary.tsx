/** A product in an admin list that is not a table (ordered members, pickers): picture, title, one line of facts, and its status when not active. */
import { Badge, BlockStack, Box, InlineStack, Text, Thumbnail } from "@shopify/polaris";
import type { ReactNode } from "react";
import { NoImage } from "~/components/NoImage";
import { thumbnailUrl } from "~/client/images";

export interface ProductSummaryProps {
  product: { title: string; status: string; featuredImage: { url: string; altText?: string | null } | null };
  /** The subdued line under the title (price, vendor…). */
  details: ReactNode;
}

export function ProductSummary({ product, details }: ProductSummaryProps) {
  return (
    <InlineStack gap="300" blockAlign="center" wrap={false}>
      <Thumbnail size="small" source={thumbnailUrl(product.featuredImage?.url) || NoImage} alt={product.featuredImage?.altText ?? product.title} />
      <Box minWidth="0" width="100%">
        <BlockStack gap="050">
          <Text as="span" fontWeight="semibold" truncate>
            {product.title}
          </Text>
          <InlineStack gap="100">
            <Text as="span" tone="subdued">
              {details}
            </Text>
            {product.status !== "active" ? <Badge tone="attention">{product.status}</Badge> : null}
          </InlineStack>
        </BlockStack>
      </Box>
    </InlineStack>
  );
}
