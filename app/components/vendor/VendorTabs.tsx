/**
 * The tabs between a vendor's pages (home, products, stores, payouts, ads). The same pages serve the
 * vendor (base /app/vendor) and admins looking at a vendor (base /app/vendors/:id). Tabs are links
 * (the app's Polaris link component navigates within Remix).
 */
import { Tabs } from "@shopify/polaris";

export type VendorSection = "home" | "products" | "stores" | "payouts" | "ads";

const SECTIONS: { id: VendorSection; label: string; path: string }[] = [
  { id: "home", label: "Home", path: "" },
  { id: "products", label: "Products", path: "/products" },
  { id: "stores", label: "Stores", path: "/stores" },
  { id: "payouts", label: "Payouts", path: "/payouts" },
  { id: "ads", label: "Ads", path: "/ads" },
];

export const vendorSectionUrl = (base: string, section: VendorSection) => `${base}${SECTIONS.find((s) => s.id === section)?.path ?? ""}`;

export function VendorTabs({ base, selected }: { base: string; selected: VendorSection }) {
  return (
    <Tabs
      tabs={SECTIONS.map((s) => ({
        id: `vendor-tab-${s.id}`,
        content: s.label,
        url: `${base}${s.path}`,
      }))}
      selected={SECTIONS.findIndex((s) => s.id === selected)}
    />
  );
}
