/**
 * A list route whose detail route (`…/$id`, nested in it) renders in place of the list: the page
 * shows the detail when one matches, else the list; and the list's data loads again on the way
 * back from a detail page (the list's loader skips its queries while a detail shows).
 */
import { useOutlet, type ShouldRevalidateFunction } from "@remix-run/react";
import type { ReactNode } from "react";

export function ListOrDetail({ list }: { list: ReactNode }) {
  const outlet = useOutlet();
  return <>{outlet ?? list}</>;
}

/** The list route's `shouldRevalidate`: also when the detail shown (the `id` param) changes. */
export const revalidateOnDetailChange: ShouldRevalidateFunction = ({ currentParams, nextParams, defaultShouldRevalidate }) =>
  currentParams.id !== nextParams.id || defaultShouldRevalidate;
