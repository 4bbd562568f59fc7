/**
 * The answer of an admin action as a banner: the server's message on success, its error on a
 * refusal (SPEC §8: screens show the server's message as it is).
 */
import { Banner, BlockStack, Layout, Text } from "@shopify/polaris";
import type { BulkFailure } from "~/lib/admin-list";

export type ActionOutcome = { ok: true; message: string; failures?: readonly BulkFailure[] } | { ok: false; error: string };

export interface ActionBannerProps {
  result: ActionOutcome | null | undefined;
  onDismiss?: () => void;
  /** Wraps the text in a span with this test id (tests find the outcome by it). */
  testId?: string;
  /** Only a refusal shows (forms in a modal: a success closes the modal instead). */
  errorsOnly?: boolean;
  /**
   * For bulk actions: the message becomes the title and each failed row is listed below it under
   * this name, the banner turning to a warning when any failed.
   */
  describeFailure?: (id: string) => string;
}

export function ActionBanner({ result, onDismiss, testId, errorsOnly, describeFailure }: ActionBannerProps) {
  if (!result || (errorsOnly && result.ok)) return null;
  if (result.ok && describeFailure) {
    const failures = result.failures ?? [];
    return (
      <Banner tone={failures.length ? "warning" : "success"} title={result.message} onDismiss={onDismiss}>
        {failures.length ? (
          <BlockStack gap="100">
            {failures.map((f) => (
              <Text as="p" key={f.id}>
                {describeFailure(f.id)}: {f.message}
              </Text>
            ))}
          </BlockStack>
        ) : null}
      </Banner>
    );
  }
  const text = result.ok ? result.message : result.error;
  return (
    <Banner tone={result.ok ? "success" : "critical"} onDismiss={onDismiss}>
      {testId ? <span data-testid={testId}>{text}</span> : text}
    </Banner>
  );
}

/** The banner as a section of the page's Layout, or nothing while there is no answer. */
export function ActionBannerSection(props: ActionBannerProps) {
  if (!props.result || (props.errorsOnly && props.result.ok)) return null;
  return (
    <Layout.Section>
      <ActionBanner {...props} />
    </Layout.Section>
  );
}
