/**
 * Declining a return request (the returns list and a return's page): the reason the customer is
 * emailed, required, and Shopify's decline category. A refusal shows inside and keeps the input.
 */
import { Select, TextField } from "@shopify/polaris";
import { useState } from "react";
import { RETURN_DECLINE_REASONS } from "~/contract/admin-returns";
import { ConfirmModal } from "./ConfirmModal";

const DECLINE_REASON_LABEL: Record<(typeof RETURN_DECLINE_REASONS)[number], string> = {
  FINAL_SALE: "Final sale",
  RETURN_PERIOD_ENDED: "Return period ended",
  OTHER: "Other",
};

export function DeclineRequestModal({
  orderName,
  loading,
  error,
  onClose,
  onSubmit,
}: {
  orderName: string;
  loading: boolean;
  error: string | null;
  onClose: () => void;
  onSubmit: (d: { reason: string; decline_reason: string }) => void;
}) {
  const [reason, setReason] = useState("");
  const [category, setCategory] = useState<string>("OTHER");
  return (
    <ConfirmModal title={`Decline the return request for ${orderName}?`} confirmLabel="Decline request" loading={loading} error={error} errorTestId="decline-error" onClose={onClose} onConfirm={() => onSubmit({ reason, decline_reason: category })}>
      <Select label="Category" options={RETURN_DECLINE_REASONS.map((r) => ({ label: DECLINE_REASON_LABEL[r], value: r }))} value={category} onChange={setCategory} />
      <TextField label="Reason (sent to the customer)" autoComplete="off" value={reason} onChange={setReason} multiline={3} requiredIndicator maxLength={1000} />
    </ConfirmModal>
  );
}
