/**
 * The storefront build's Vite manifest (build/storefront/.vite/manifest.json), read: which files
 * a page needs on its first load. The server preloads them (storefront-html.server.ts) and the
 * bench weighs them (scripts/bench/storefront.ts). Pure: no file system here.
 */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type StorefrontManifest = Record<string, ManifestChunk>;

/** The storefront's HTML entry in the manifest. */
export const ENTRY_KEY = "index.html";

/** The page modules (manifest keys) of the storefront's first-load pages, by the path they answer. */
export function pageModuleFor(pathname: string): string | null {
  const p = pathname.replace(/\/+$/, "") || "/";
  if (p === "/" || p === "/mens" || p === "/womens") return "src/pages/Home.tsx";
  if (p === "/stores" || p === "/mens/stores" || p === "/womens/stores") return "src/pages/Stores.tsx";
  if (/^\/stores\/[^/]+(\/[^/]+)?$/.test(p)) return "src/pages/StorePage.tsx";
  if (/^\/products\/[^/]+(\/[^/]+)?$/.test(p)) return "src/pages/ProductPage.tsx";
  return null;
}

/**
 * The JavaScript and CSS files a module loads before it runs: its own file and its static imports,
 * transitively (dynamic imports are left out: they load later, on demand). Paths as in the
 * manifest (`sf-assets/…`), each once, the module's own file first.
 */
export function staticClosure(manifest: StorefrontManifest, key: string): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css: string[] = [];
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (seen.has(k)) return;
    seen.add(k);
    const chunk = manifest[k];
    if (!chunk) return;
    js.push(chunk.file);
    for (const c of chunk.css ?? []) if (!css.includes(c)) css.push(c);
    for (const i of chunk.imports ?? []) visit(i);
  };
  visit(key);
  return { js, css };
}

/** What a first visit of `pathname` loads: the entry's files and, for a known page, the page's. */
export function firstLoadFiles(manifest: StorefrontManifest, pathname: string): { js: string[]; css: string[]; page: string | null } {
  const entry = staticClosure(manifest, ENTRY_KEY);
  const page = pageModuleFor(pathname);
  if (!page || !manifest[page]) return { ...entry, page: null };
  const own = staticClosure(manifest, page);
  return {
    js: [...entry.js, ...own.js.filter((f) => !entry.js.includes(f))],
    css: [...entry.css, ...own.css.filter((f) => !entry.css.includes(f))],
    page,
  };
}
