import { Badge } from "@shopify/polaris";
import type { OutfitStatus } from "~/contract/outfits";

const TONE: Record<OutfitStatus, "success" | "info" | undefined> = { published: "success", draft: "info", archived: undefined };
const LABEL: Record<OutfitStatus, string> = { published: "Published", draft: "Draft", archived: "Archived" };

export function OutfitStatusBadge({ status }: { status: OutfitStatus }) {
  return <Badge tone={TONE[status]}>{LABEL[status]}</Badge>;
}
