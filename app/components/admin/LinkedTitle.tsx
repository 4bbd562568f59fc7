/** The first cell of an admin list row: the row's title linking to its page, and a subdued line under it when given. */
import { Link } from "@remix-run/react";
import { BlockStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

export interface LinkedTitleProps {
  to: string;
  title: ReactNode;
  /** On the link (tests find the rows by it). */
  testId?: string;
  /** The subdued line under the title (handle, date…). */
  details?: ReactNode;
}

export function LinkedTitle({ to, title, testId, details }: LinkedTitleProps) {
  const link = (
    <Link to={to} data-testid={testId}>
      <Text as="span" fontWeight="semibold">
        {title}
      </Text>
    </Link>
  );
  if (details === undefined) return link;
  return (
    <BlockStack gap="050">
      {link}
      <Text as="span" tone="subdued" variant="bodySm">
        {details}
      </Text>
    </BlockStack>
  );
}
