/**
 * Small DOM helpers shared by the blocks. API data only ever reaches the page through
 * textContent and attribute setters (no innerHTML).
 */

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The page's language as a BCP 47 tag (for prices and dates), else the browser's default. */
export function pageLocale(): string | undefined {
  const lang = document.documentElement.lang?.trim();
  if (lang) {
    try {
      return Intl.getCanonicalLocales(lang)[0];
    } catch {
      /* not a valid tag: the browser's default */
    }
  }
  return undefined;
}

/** A text of the block (a `data-text-*` attribute rendered from the locale file), else the fallback. */
export function textOf(root: HTMLElement, key: string, fallback: string): string {
  const v = root.dataset[`text${key[0].toUpperCase()}${key.slice(1)}`];
  return v && v.trim() ? v.trim() : fallback;
}

/**
 * "{number} reviews" → "3 reviews". The blocks render texts with placeholders as
 * `'key' | t: number: '{number}'`, so Shopify's own interpolation leaves a `{number}` marker
 * for the script (and never drops an unknown variable).
 */
export function interpolate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

/** Whether the page is open in the theme editor (then empty blocks explain themselves). */
export function inThemeEditor(): boolean {
  return !!(window as { Shopify?: { designMode?: boolean } }).Shopify?.designMode;
}

/**
 * Runs `mount` for every element matching `selector` now (or when the document is parsed) and
 * again for the elements of a section the theme editor re-renders. `mount` must be idempotent.
 */
export function mountAll(selector: string, mount: (root: HTMLElement) => void): void {
  const run = (scope: ParentNode) => {
    const roots = scope instanceof HTMLElement && scope.matches(selector) ? [scope] : [];
    roots.push(...Array.from(scope.querySelectorAll<HTMLElement>(selector)));
    for (const root of roots) {
      try {
        mount(root);
      } catch (error) {
        console.warn("[fashion-blocks] a block could not start", error);
      }
    }
  };
  if (typeof document === "undefined") return;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => run(document), { once: true });
  else run(document);
  document.addEventListener("shopify:section:load", (event) => run(event.target instanceof HTMLElement ? event.target : document));
}

/** A status line that screen readers announce. */
export function statusLine(className: string): HTMLParagraphElement {
  const p = el("p", className);
  p.setAttribute("role", "status");
  p.setAttribute("aria-live", "polite");
  return p;
}
