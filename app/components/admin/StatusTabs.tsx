/** Polaris tabs over a list's statuses, optionally with a count per tab ("Pending (4)"). */
import { Tabs } from "@shopify/polaris";

export interface StatusTab<Id extends string = string> {
  id: Id;
  label: string;
}

export interface StatusTabsProps<Id extends string> {
  tabs: readonly StatusTab<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
  /** The count shown after a tab's label; undefined shows the label alone. */
  count?: (id: Id) => number | undefined;
  /** Prefix of the tabs' DOM ids, for pages where a bare status id could clash. */
  idPrefix?: string;
  /** What a screen reader says for a counted tab (default: the visible text). */
  accessibilityLabel?: (tab: StatusTab<Id>, count: number) => string;
}

export function StatusTabs<Id extends string>({ tabs, selected, onSelect, count, idPrefix = "", accessibilityLabel }: StatusTabsProps<Id>) {
  return (
    <Tabs
      tabs={tabs.map((t) => {
        const n = count?.(t.id);
        return {
          id: `${idPrefix}${t.id}`,
          content: n === undefined ? t.label : `${t.label} (${n})`,
          ...(n !== undefined && accessibilityLabel ? { accessibilityLabel: accessibilityLabel(t, n) } : {}),
        };
      })}
      selected={Math.max(0, tabs.findIndex((t) => t.id === selected))}
      onSelect={(i) => onSelect(tabs[i].id)}
    />
  );
}
