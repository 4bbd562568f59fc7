/**
 * The title of an admin list row as Polaris' IndexTable shows it: bold, in the text colour, not
 * underlined (not a default blue link). With `primary` it is the row's primary link
 * (`data-primary-link`): a click anywhere on the row opens the row's page. `LinkedTitle` adds a
 * subdued line under the title (handle, date…).
 */
import { Link } from "@remix-run/react";
import { BlockStack, Text } from "@shopify/polaris";
import type { CSSProperties, ReactNode } from "react";

/** Polaris' monochrome, underline-free link look, on the router's own link (client navigation, test ids). */
export const ROW_LINK_STYLE: CSSProperties = { color: "inherit", textDecoration: "none" };

export interface RowLinkProps {
  to: string;
  children: ReactNode;
  /** On the link (tests find the rows by it). */
  testId?: string;
  /**
   * The row's primary link: IndexTable makes the whole row open it. Only in rows without other
   * links or buttons, or with those wrapped in `StopRowClick` (a click on them would open the
   * row's page too).
   */
  primary?: boolean;
  /** The text weight (default bold, as Polaris' index tables show the primary column). */
  fontWeight?: "bold" | "semibold" | "medium" | "regular";
  /** Shortens a long title with an ellipsis instead of wrapping it. */
  truncate?: boolean;
  accessibilityLabel?: string;
}

export function RowLink({ to, children, testId, primary = false, fontWeight = "bold", truncate, accessibilityLabel }: RowLinkProps) {
  return (
    <Link
      to={to}
      data-testid={testId}
      data-primary-link={primary ? true : undefined}
      aria-label={accessibilityLabel}
      // The row's own click handler follows the primary link too: a click on the link itself must not also reach the row.
      onClick={primary ? (e) => e.stopPropagation() : undefined}
      style={ROW_LINK_STYLE}
    >
      <Text as="span" fontWeight={fontWeight} truncate={truncate}>
        {children}
      </Text>
    </Link>
  );
}

export interface LinkedTitleProps {
  to: string;
  title: ReactNode;
  /** On the link (tests find the rows by it). */
  testId?: string;
  /** The subdued line under the title (handle, date…). */
  details?: ReactNode;
  /** See RowLink. */
  primary?: boolean;
}

export function LinkedTitle({ to, title, testId, details, primary }: LinkedTitleProps) {
  const link = (
    <RowLink to={to} testId={testId} primary={primary}>
      {title}
    </RowLink>
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

/** Controls in a row whose title is the primary link: a click on them stays theirs (the row does not open). */
export function StopRowClick({ children }: { children: ReactNode }) {
  return (
    <div onClick={(e) => e.stopPropagation()} role="presentation">
      {children}
    </div>
  );
}
