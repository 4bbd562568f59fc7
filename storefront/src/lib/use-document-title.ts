/**
 * Sets the tab's title to `{title} · Fashion Discovery` while the page is shown (and when `title`
 * changes), for the pages index.html does not describe: the default description, no canonical
 * (what the server answers for them), so a product's description does not stay behind.
 */
import { plainPageText } from "~/lib/page-text";
import { usePageMeta } from "./use-page-meta";

export function useDocumentTitle(title: string): void {
  usePageMeta(plainPageText(title));
}
