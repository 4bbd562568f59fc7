/** A current image and a proposed one side by side, for screens that review image proposals. */
import { BlockStack, InlineStack, Text } from "@shopify/polaris";

export function ImageBox({ url, label, size = 96 }: { url: string | null; label: string; size?: number }) {
  return (
    <BlockStack gap="100" inlineAlign="center">
      <div style={{ width: size, height: size, borderRadius: 8, overflow: "hidden", background: "var(--p-color-bg-surface-secondary)", display: "flex", alignItems: "center", justifyContent: "center" }}>
        {url ? (
          <img src={url} alt={label} style={{ width: "100%", height: "100%", objectFit: "contain" }} loading="lazy" />
        ) : (
          <Text as="span" tone="subdued" variant="bodySm">
            No image
          </Text>
        )}
      </div>
      <Text as="span" tone="subdued" variant="bodySm">
        {label}
      </Text>
    </BlockStack>
  );
}

export function BeforeAfter({ before, after, size, beforeLabel = "Before", afterLabel = "After" }: { before: string | null; after: string | null; size?: number; beforeLabel?: string; afterLabel?: string }) {
  return (
    <InlineStack gap="200" blockAlign="center" wrap={false}>
      <ImageBox url={before} label={beforeLabel} size={size} />
      <Text as="span" tone="subdued">
        →
      </Text>
      <ImageBox url={after} label={afterLabel} size={size} />
    </InlineStack>
  );
}
