/**
 * Status tabs with counts over a search and a vendor filter: the ad board and the ad requests
 * queue filter the same way. A filter change starts from the first page (the cursor belongs to the
 * old filters); "Clear all" keeps the tab unless it is the default one.
 */
import { Filters, Select } from "@shopify/polaris";
import { useNavigation } from "@remix-run/react";
import { StatusTabs, useListParams, useQueryParam, type StatusTab } from "~/components/admin";

interface Props<Id extends string> {
  tabs: ReadonlyArray<StatusTab<Id>>;
  /** The tab shown when the URL names none (selecting it takes `status` out of the URL). */
  defaultTab: Id;
  idPrefix: string;
  filters: { status: Id; vendorId: string; q: string };
  counts: Record<Id, number>;
  vendors: ReadonlyArray<{ id: string; name: string }>;
  queryPlaceholder: string;
}

export function TabbedVendorFilters<Id extends string>({ tabs, defaultTab, idPrefix, filters, counts, vendors, queryPlaceholder }: Props<Id>) {
  const navigation = useNavigation();
  const { setParams, reset } = useListParams({ pageKey: "cursor" });
  const setFilter = (key: string, value: string) => setParams({ [key]: value, trail: null });
  const query = useQueryParam(filters.q, setFilter);
  const vendorName = vendors.find((v) => v.id === filters.vendorId)?.name;
  return (
    <>
      <StatusTabs
        tabs={tabs}
        selected={filters.status}
        idPrefix={idPrefix}
        count={(id) => counts[id]}
        accessibilityLabel={(t, n) => `${t.label}: ${n}`}
        onSelect={(id) => setFilter("status", id === defaultTab ? "" : id)}
      />
      <Filters
        {...query.filterProps}
        queryPlaceholder={queryPlaceholder}
        filters={[
          {
            key: "vendorId",
            label: "Vendor",
            filter: (
              <Select
                label="Vendor"
                labelHidden
                options={[{ value: "", label: "All vendors" }, ...vendors.map((v) => ({ value: v.id, label: v.name }))]}
                value={filters.vendorId}
                onChange={(v) => setFilter("vendorId", v)}
              />
            ),
            shortcut: true,
          },
        ]}
        appliedFilters={vendorName ? [{ key: "vendorId", label: `Vendor: ${vendorName}`, onRemove: () => setFilter("vendorId", "") }] : []}
        onClearAll={() => {
          query.setValue("");
          reset(filters.status !== defaultTab ? { status: filters.status } : {});
        }}
        loading={navigation.state === "loading"}
      />
    </>
  );
}
