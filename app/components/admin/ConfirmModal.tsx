/**
 * Asks before an action that cannot be undone (delete, revoke, retry everything): the action's
 * button, Cancel, and the server's refusal shown inside the dialog so that it stays open.
 */
import { BlockStack, Modal } from "@shopify/polaris";
import type { ReactNode } from "react";
import { ActionBanner } from "./ActionBanner";

export interface ConfirmModalProps {
  /** Mounted and closed (false) or shown; a modal mounted only while needed leaves it at true. */
  open?: boolean;
  title: string;
  confirmLabel: string;
  /** Red confirm button; false for a heavy but harmless action. */
  destructive?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  error?: string | null;
  errorTestId?: string;
  children: ReactNode;
}

export function ConfirmModal({ open = true, title, confirmLabel, destructive = true, loading, onConfirm, onClose, error, errorTestId, children }: ConfirmModalProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      primaryAction={{ content: confirmLabel, destructive, loading, onAction: onConfirm }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          {error ? <ActionBanner result={{ ok: false, error }} testId={errorTestId} /> : null}
          {children}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
