/** A card of an admin page with its heading ("Details", "Score", "Notify shoppers"…) above its content. */
import { BlockStack, Card, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

export interface SectionCardProps {
  title: ReactNode;
  /** Space between the heading and each piece of the content. */
  gap?: "200" | "300" | "400";
  children: ReactNode;
}

export function SectionCard({ title, gap = "300", children }: SectionCardProps) {
  return (
    <Card>
      <BlockStack gap={gap}>
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {children}
      </BlockStack>
    </Card>
  );
}
