/** Who a style (or another curated list) is for: both, menswear or womenswear. */
import { Select } from "@shopify/polaris";

const OPTIONS = [
  { label: "Both", value: "both" },
  { label: "Menswear", value: "menswear" },
  { label: "Womenswear", value: "womenswear" },
];

export function TargetGenderSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return <Select label="Target gender" options={OPTIONS} value={value} onChange={onChange} />;
}
