/** Status badges and figure formats of the vendor's ad pages. */
import { Badge } from "@shopify/polaris";
import type { AdRequestStatus, AdStatus } from "./ad-views";

type Tone = "info" | "success" | "attention" | "warning" | "critical" | undefined;

/** How a vendor reads each status: what happens next, and whether it waits on the vendor. */
export const AD_STATUS_LABEL: Record<AdStatus, { label: string; tone: Tone }> = {
  PENDING: { label: "Being made", tone: "info" },
  COMPLETED: { label: "Ready for your review", tone: "attention" },
  FEEDBACK_PENDING: { label: "Changes requested", tone: "warning" },
  APPROVED: { label: "Approved", tone: "success" },
  LIVE: { label: "Live", tone: "success" },
  INACTIVE: { label: "Paused", tone: undefined },
};

export function AdStatusBadge({ status }: { status: AdStatus }) {
  const s = AD_STATUS_LABEL[status];
  return (
    <span data-testid="ad-status" data-status={status}>
      <Badge tone={s.tone}>{s.label}</Badge>
    </span>
  );
}

export function AdRequestStatusBadge({ status }: { status: AdRequestStatus }) {
  return (
    <span data-testid="ad-request-status" data-status={status}>
      <Badge tone={status === "open" ? "info" : "success"}>{status === "open" ? "Open" : "Completed"}</Badge>
    </span>
  );
}

export const rate = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(2)}%`);
export const roasText = (v: number | null) => (v === null ? "—" : `${v.toFixed(2)}×`);
