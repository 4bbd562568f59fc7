/**
 * The page's title, description and canonical address in the document's head while the page is
 * shown. The server writes them into the index.html of the first page (app/services/seo.server.ts);
 * a shopper who then moves inside the app (home → product → store) would keep the first page's,
 * so each page sets its own, with the same texts (app/lib/page-text.ts).
 */
import { createContext, useContext, useEffect } from "react";
import { useLocation } from "react-router-dom";
import { DEFAULT_PAGE_TEXT, staticPageText, type PageText } from "~/lib/page-text";

/**
 * Receives the meta a page asks for while it renders. Effects do not run in a server render, so a
 * render test provides one to read what the page would set.
 */
export const PageMetaSink = createContext<((text: PageText) => void) | null>(null);

function setContent(doc: Document, selector: string, content: string, create?: () => HTMLMetaElement): void {
  let el = doc.head.querySelector<HTMLMetaElement>(selector);
  if (!el && create) el = doc.head.appendChild(create());
  el?.setAttribute("content", content);
}

function namedMeta(doc: Document, name: string): () => HTMLMetaElement {
  return () => {
    const el = doc.createElement("meta");
    el.setAttribute("name", name);
    return el;
  };
}

/**
 * Writes `text` into `doc`'s head: title, description, canonical link (on the origin the server
 * wrote, else the page's), robots noindex, and the Open Graph copies the server wrote.
 */
export function applyPageMeta(doc: Document, text: PageText): void {
  doc.title = text.title;
  setContent(doc, 'meta[name="description"]', text.description, namedMeta(doc, "description"));
  setContent(doc, 'meta[property="og:title"]', text.title);
  setContent(doc, 'meta[property="og:description"]', text.description);

  let canonical = doc.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (text.canonicalPath === null) {
    canonical?.remove();
  } else {
    const href = new URL(text.canonicalPath, canonical?.href || doc.location.origin).href;
    if (!canonical) {
      canonical = doc.createElement("link");
      canonical.rel = "canonical";
      doc.head.appendChild(canonical);
    }
    canonical.href = href;
    setContent(doc, 'meta[property="og:url"]', href);
  }

  if (text.noindex) setContent(doc, 'meta[name="robots"]', "noindex", namedMeta(doc, "robots"));
  else doc.head.querySelector('meta[name="robots"]')?.remove();
}

/** The meta of a page that needs no data (home, a search, the stores pages, drops), by its address. */
export function useStaticPageMeta(): void {
  const { pathname, search } = useLocation();
  usePageMeta(staticPageText(pathname, new URLSearchParams(search)) ?? DEFAULT_PAGE_TEXT);
}

/** Sets the page's meta while it is shown, and again when the texts change. */
export function usePageMeta(text: PageText): void {
  const sink = useContext(PageMetaSink);
  sink?.(text);
  const { title, description, canonicalPath, noindex = false } = text;
  useEffect(() => {
    applyPageMeta(document, { title, description, canonicalPath, noindex });
  }, [title, description, canonicalPath, noindex]);
}
