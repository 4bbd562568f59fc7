/**
 * A form in a dialog that posts through a fetcher (e.g. "Create drop"): the submit button busy
 * while it posts, Cancel, the server's refusal above the fields, and closing once it succeeds.
 */
import { BlockStack, FormLayout, Modal } from "@shopify/polaris";
import { useEffect, type ReactNode } from "react";
import { ActionBanner, type ActionOutcome } from "./ActionBanner";

export interface FormModalProps {
  title: string;
  submitLabel: string;
  fetcher: { state: string; data?: ActionOutcome };
  onSubmit: () => void;
  onClose: () => void;
  /** The fields (inside a FormLayout). */
  children: ReactNode;
}

export function FormModal({ title, submitLabel, fetcher, onSubmit, onClose, children }: FormModalProps) {
  useEffect(() => {
    if (fetcher.data?.ok) onClose();
  }, [fetcher.data, onClose]);
  return (
    <Modal
      open
      onClose={onClose}
      title={title}
      primaryAction={{ content: submitLabel, onAction: onSubmit, loading: fetcher.state !== "idle" }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          <ActionBanner result={fetcher.data} errorsOnly />
          <FormLayout>{children}</FormLayout>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
