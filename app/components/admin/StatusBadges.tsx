/** The status badges of drops and of style categorisation, with one tone per status everywhere. */
import { Badge } from "@shopify/polaris";

const DROP_TONE = { draft: undefined, scheduled: "info", published: "success", cancelled: "critical" } as const;

export function DropStatusBadge({ status }: { status: keyof typeof DROP_TONE }) {
  return <Badge tone={DROP_TONE[status]}>{status}</Badge>;
}

const CATEGORISATION_TONE = { pending: "attention", processing: "info", completed: "success", failed: "critical" } as const;

/** A style's categorisation status; `label` replaces the bare status as the text. */
export function CategorisationBadge({ status, label = status }: { status: keyof typeof CATEGORISATION_TONE; label?: string }) {
  return <Badge tone={CATEGORISATION_TONE[status]}>{label}</Badge>;
}
