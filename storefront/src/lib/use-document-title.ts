/** Sets the tab's title to `{title} · Fashion Discovery` while the page is shown (and when `title` changes). */
import { useEffect } from "react";

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Fashion Discovery`;
  }, [title]);
}
