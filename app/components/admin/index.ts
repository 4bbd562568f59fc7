/** Shared pieces of the admin list screens (Polaris): banners, confirmations, tabs, paging, ordering. */
export { ActionBanner, ActionBannerSection, type ActionBannerProps, type ActionOutcome } from "./ActionBanner";
export { BeforeAfter, ImageBox } from "./ImageCompare";
export { ConfirmModal, type ConfirmModalProps } from "./ConfirmModal";
export { ListFooter, type ListFooterProps } from "./ListFooter";
export { ProductCandidates, type ProductCandidatesProps } from "./ProductCandidates";
export { ProductSummary, type ProductSummaryProps } from "./ProductSummary";
export { SortableList, type SortableListProps } from "./SortableList";
export { StatusTabs, type StatusTab, type StatusTabsProps } from "./StatusTabs";
export { useBulkSelection, useFetcherResult, useRowAction } from "./useActionFetchers";
export { useDebouncedInput, useListParams, useQueryParam, type ListParamsOptions } from "./useListParams";
