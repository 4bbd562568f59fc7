/**
 * Words and badges the catalogue screens share: the target genders (labels and Select options) and
 * the badge of a publication status (active / draft / archived, as products and collections use).
 */
import { Badge } from "@shopify/polaris";
import { TargetGender } from "~/contract/common";

export const GENDER_LABEL: Record<string, string> = { both: "Unisex", menswear: "Menswear", womenswear: "Womenswear" };

/** The target genders as Select / ChoiceList options, in the contract's order. */
export const GENDER_OPTIONS = TargetGender.options.map((g) => ({ label: GENDER_LABEL[g], value: g }));

const STATUS_TONE: Record<string, "success" | "attention" | undefined> = { active: "success", draft: "attention", archived: undefined };

/** "active" in green, "draft" in amber, "archived" plain. */
export function PublicationBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONE[status]}>{status}</Badge>;
}

/** A name short enough for a bar chart's label column (15 characters at most). */
export const chartLabel = (name: string) => (name.length > 15 ? `${name.slice(0, 14)}…` : name);
