/**
 * The storefront's server side (server.ts mounts it): the built assets without source maps,
 * `robots.txt`, `sitemap.xml`, and the single-page app's index.html with each page's head filled
 * in — title, description, canonical address, Open Graph, the product's JSON-LD — and preload
 * links for the page's own JavaScript (the build splits pages into chunks: storefront/src/App.tsx),
 * so crawlers read a real page and a first visit fetches its page's code without waiting for the
 * app to ask for it.
 */
import fs from "node:fs";
import path from "node:path";
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from "express";
import type { Db } from "~/db.server";
import { absoluteLinks, pageMeta, sitemapEntries, SITE_NAME, type PageMeta } from "~/services/seo.server";
import { firstLoadFiles, type StorefrontManifest } from "./storefront-manifest";
import type { PagePrefetch } from "./storefront-prefetch.server";
import { BOOTSTRAP_ELEMENT_ID } from "../../storefront/src/lib/bootstrap";

export interface StorefrontPagesOptions {
  db: Db;
  /** The public origin of absolute addresses (`appBaseUrl(config)`); asked per request, since PORT=0 learns its port late. */
  origin: () => string;
  /** build/storefront: index.html, sf-assets/, .vite/manifest.json. */
  storefrontDir: string;
  log?: { warn(obj: unknown, msg?: string): void };
  /** Paths robots.txt keeps crawlers out of (the admin, the API, a shopper's own pages). */
  disallow?: string[];
  /** The page's first API answers and main image (app/lib/storefront-prefetch.server.ts). */
  prefetch?: (req: Request) => Promise<PagePrefetch | null>;
}

const DEFAULT_DISALLOW = ["/app", "/api", "/auth", "/webhooks", "/proxy", "/apps", "/theme-preview", "/account", "/checkout", "/cart", "/login", "/saved", "/following", "/my-collections", "/try-ons", "/saved-try-ons", "/clones", "/review", "/reviewable-orders", "/verify-email"];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

const escapeXml = escapeHtml;

/** JSON inside a `<script>`: no `</script>` or `<!--` can close or open anything. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

export function robotsTxt(origin: string, disallow: string[] = DEFAULT_DISALLOW): string {
  return ["User-agent: *", "Allow: /", ...disallow.map((p) => `Disallow: ${p}`), "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
}

export function sitemapXml(origin: string, entries: { path: string; lastmod?: Date }[]): string {
  const urls = entries.map((e) => `  <url><loc>${escapeXml(`${origin}${e.path}`)}</loc>${e.lastmod ? `<lastmod>${e.lastmod.toISOString()}</lastmod>` : ""}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/** The head of `html` with the page's meta and preload links; the rest untouched. */
export function renderIndexHtml(
  html: string,
  origin: string,
  meta: PageMeta | null,
  preload: { js: string[]; css: string[] } = { js: [], css: [] },
  data: Pick<PagePrefetch, "responses" | "preloadImages"> | null = null,
): string {
  let out = html;
  // The entry's own script and stylesheet are in index.html already: link only what it lacks.
  const missing = (file: string) => !html.includes(`/${file}"`);
  const tags: string[] = [
    // The main image first: it waits for nothing else (the page's own <img> asks for the same file).
    ...(data?.preloadImages ?? []).map(
      (i) =>
        `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(i.href)}"${i.imagesrcset ? ` imagesrcset="${escapeHtml(i.imagesrcset)}" imagesizes="${escapeHtml(i.imagesizes)}"` : ""}${i.type ? ` type="${escapeHtml(i.type)}"` : ""}>`,
    ),
    ...preload.js.filter(missing).map((f) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(f)}">`),
    ...preload.css.filter(missing).map((f) => `<link rel="stylesheet" crossorigin href="/${escapeHtml(f)}">`),
  ];
  if (data && Object.keys(data.responses).length) tags.push(`<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">${scriptJson(data.responses)}</script>`);
  if (meta) {
    const canonical = `${origin}${meta.canonicalPath}`;
    const image = meta.image ? (meta.image.startsWith("/") ? `${origin}${meta.image}` : meta.image) : null;
    out = out.replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(meta.title)}</title>`);
    out = out.replace(/<meta name="description" content="[^"]*"\s*\/?>/, "");
    const head = [
      `<meta name="description" content="${escapeHtml(meta.description)}">`,
      `<link rel="canonical" href="${escapeHtml(canonical)}">`,
      meta.noindex ? `<meta name="robots" content="noindex">` : "",
      `<meta property="og:site_name" content="${escapeHtml(SITE_NAME)}">`,
      `<meta property="og:type" content="${meta.type === "product" ? "product" : "website"}">`,
      `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
      `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
      `<meta property="og:url" content="${escapeHtml(canonical)}">`,
      image ? `<meta property="og:image" content="${escapeHtml(image)}">` : "",
      `<meta name="twitter:card" content="${image ? "summary_large_image" : "summary"}">`,
      ...meta.jsonLd.map((o) => `<script type="application/ld+json">${scriptJson(absoluteLinks(o, origin))}</script>`),
    ].filter(Boolean);
    tags.push(...head);
  }
  if (!tags.length) return out;
  return out.replace("</head>", `  ${tags.join("\n    ")}\n  </head>`);
}

/** A file read again only when it changes (the build rewrites it). */
function cachedFile<T>(file: string, parse: (text: string) => T): () => T | null {
  let cache: { mtimeMs: number; value: T } | null = null;
  return () => {
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      return null;
    }
    if (cache && cache.mtimeMs === st.mtimeMs) return cache.value;
    cache = { mtimeMs: st.mtimeMs, value: parse(fs.readFileSync(file, "utf8")) };
    return cache.value;
  };
}

/** `/sf-assets` as built, with source maps refused (a build with maps must not publish the sources). */
export function storefrontAssets(storefrontDir: string): Router {
  const router = express.Router();
  router.use((req, res, next) => (req.path.endsWith(".map") ? res.status(404).type("text/plain").send("Not found") : next()));
  router.use(express.static(path.join(storefrontDir, "sf-assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
  return router;
}

export function robotsRoute(opts: Pick<StorefrontPagesOptions, "origin" | "disallow">): RequestHandler {
  return (_req, res) => {
    res.type("text/plain").setHeader("Cache-Control", "public, max-age=3600");
    res.send(robotsTxt(opts.origin(), opts.disallow));
  };
}

export function sitemapRoute(opts: Pick<StorefrontPagesOptions, "db" | "origin">): RequestHandler {
  return (_req, res, next) => {
    sitemapEntries(opts.db).then((entries) => {
      res.type("application/xml").setHeader("Cache-Control", "public, max-age=3600");
      res.send(sitemapXml(opts.origin(), entries));
    }, next);
  };
}

/**
 * The storefront's page for a shopper path: index.html with the page's head. A meta lookup that
 * fails (database down) still answers the page with the defaults: the app itself then says what
 * is wrong.
 */
export function storefrontPage(opts: StorefrontPagesOptions): (req: Request, res: Response, next: NextFunction) => void {
  const indexFile = path.join(opts.storefrontDir, "index.html");
  const readIndex = cachedFile(indexFile, (t) => t);
  const readManifest = cachedFile(path.join(opts.storefrontDir, ".vite", "manifest.json"), (t) => JSON.parse(t) as StorefrontManifest);
  return (req, res, next) => {
    const html = readIndex();
    if (html === null) return void res.status(503).send("The storefront is not built: run `npm run build`");
    const url = new URL(req.originalUrl, "http://local");
    const origin = opts.origin();
    let manifest: StorefrontManifest | null = null;
    try {
      manifest = readManifest();
    } catch (e) {
      opts.log?.warn({ err: e }, "storefront manifest unreadable: no preload links");
    }
    const preload = manifest ? firstLoadFiles(manifest, url.pathname) : { js: [], css: [] };
    const meta = pageMeta(opts.db, url.pathname, url.searchParams).catch((e: unknown) => {
      opts.log?.warn({ err: e, path: url.pathname }, "storefront page meta failed: serving the defaults");
      return null;
    });
    const data = (opts.prefetch?.(req) ?? Promise.resolve(null)).catch((e: unknown) => {
      opts.log?.warn({ err: e, path: url.pathname }, "storefront prefetch failed: the page loads its own data");
      return null;
    });
    Promise.all([meta, data])
      .then(([m, d]) => {
        for (const c of d?.setCookies ?? []) res.append("Set-Cookie", c);
        // A page carrying a visitor's own answers is theirs alone: never stored by a shared cache.
        res.setHeader("Cache-Control", d ? "private, no-store" : "no-cache");
        res.type("html").send(renderIndexHtml(html, origin, m, preload, d));
      })
      .catch(next);
  };
}

