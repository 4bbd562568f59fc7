/**
 * The storefront's server side for crawlers (issue 20): robots.txt, sitemap.xml, each page's head
 * in the served index.html (title, description, the product's JSON-LD), and no source map served.
 * Over real HTTP, with the routes server.ts mounts, on a test database.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { robotsRoute, sitemapRoute, storefrontAssets, storefrontPage } from "../../app/lib/storefront-html.server";

const ORIGIN = "https://shop.example.test";
let app: TestApp;
let base = "";
let close: () => Promise<void>;
let dir = "";

beforeAll(async () => {
  app = await createTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-sf-"));
  fs.mkdirSync(path.join(dir, "sf-assets"));
  fs.mkdirSync(path.join(dir, ".vite"));
  fs.writeFileSync(path.join(dir, "index.html"), '<!doctype html><html><head><meta name="description" content="Default." /><title>Fashion Discovery</title><script type="module" crossorigin src="/sf-assets/index-A.js"></script></head><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(dir, "sf-assets", "index-A.js"), "console.log(1)");
  fs.writeFileSync(path.join(dir, "sf-assets", "index-A.js.map"), "{}");
  fs.writeFileSync(path.join(dir, ".vite", "manifest.json"), JSON.stringify({ "index.html": { file: "sf-assets/index-A.js", isEntry: true }, "src/pages/ProductPage.tsx": { file: "sf-assets/ProductPage-B.js", imports: ["index.html"] } }));
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Northwind", handle: "northwind" } });
  const store = await db.store.create({ data: { name: "Northwind Atelier", handle: "northwind-atelier", vendor_id: vendor.id, description: "Linen and wool." } });
  await db.product.create({ data: { id: "gid://shopify/Product/9001", title: "Linen Shirt", handle: "linen-shirt", vendor: "Northwind", description: "A <light> linen shirt.", availableForSale: true, priceMin: 40, priceMax: 55, currencyCode: "EUR", featuredImageUrl: "/uploads/images/shirt.jpg", store_id: store.id, status: "active", publishedAt: new Date(Date.now() - 60_000) } });
  await db.product.create({ data: { id: "gid://shopify/Product/9002", title: "Hidden Draft", handle: "hidden-draft", status: "draft" } });
  await db.reviewRatingSummary.create({ data: { product_id: "gid://shopify/Product/9001", average: 4.5, count: 2 } });
  const opts = { db, origin: () => ORIGIN, storefrontDir: dir };
  const web = express();
  web.use("/sf-assets", storefrontAssets(dir));
  web.get("/robots.txt", robotsRoute(opts));
  web.get("/sitemap.xml", sitemapRoute(opts));
  web.get("*", storefrontPage(opts));
  const server = await new Promise<import("node:http").Server>((r) => {
    const s = web.listen(0, "127.0.0.1", () => r(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});

afterAll(async () => {
  await close?.();
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("robots.txt and sitemap.xml", () => {
  it("robots.txt is text that keeps crawlers out of the admin and the API and names the sitemap", async () => {
    const res = await fetch(`${base}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toContain("User-agent: *");
    expect(text).toMatch(/^Disallow: \/app$/m);
    expect(text).toMatch(/^Disallow: \/api$/m);
    expect(text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  it("sitemap.xml is XML with absolute URLs: gender pages, the store and visible products only", async () => {
    const res = await fetch(`${base}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/xml/);
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(expect.arrayContaining([`${ORIGIN}/`, `${ORIGIN}/mens`, `${ORIGIN}/womens/stores`, `${ORIGIN}/products/9001/linen-shirt`]));
    expect(locs.some((l) => l.startsWith(`${ORIGIN}/stores/`) && l.endsWith("/northwind-atelier"))).toBe(true);
    expect(xml).not.toContain("hidden-draft");
    expect(xml.match(/<url>/g)?.length).toBe(xml.match(/<\/url>/g)?.length);
  });
});

describe("the served index.html", () => {
  it("a product page: its title, description, canonical, preload of its chunk and JSON-LD Product with offers, availability and rating", async () => {
    const res = await fetch(`${base}/products/9001/linen-shirt`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>Linen Shirt by Northwind · Fashion Discovery</title>");
    expect(html).toContain('<meta name="description" content="A &lt;light&gt; linen shirt.">');
    expect(html).not.toContain("Default.");
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/products/9001/linen-shirt">`);
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/sf-assets/ProductPage-B.js">');
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html);
    expect(ld).not.toBeNull();
    const product = JSON.parse(ld![1]) as Record<string, any>;
    expect(product).toMatchObject({
      "@type": "Product",
      name: "Linen Shirt",
      url: `${ORIGIN}/products/9001/linen-shirt`,
      image: [`${ORIGIN}/uploads/images/shirt.jpg`],
      brand: { name: "Northwind" },
      offers: { "@type": "AggregateOffer", lowPrice: "40.00", highPrice: "55.00", priceCurrency: "EUR", availability: "https://schema.org/InStock" },
      aggregateRating: { ratingValue: 4.5, reviewCount: 2 },
    });
  });

  it("home and a gender page have their own titles; a product shoppers cannot see is noindex", async () => {
    const home = await (await fetch(`${base}/`)).text();
    expect(home).toContain("<title>Fashion Discovery: fashion from independent stores</title>");
    const mens = await (await fetch(`${base}/mens`)).text();
    expect(mens).toContain("<title>Menswear · Fashion Discovery</title>");
    const hidden = await (await fetch(`${base}/products/9002/hidden-draft`)).text();
    expect(hidden).toContain("<title>Product not found · Fashion Discovery</title>");
    expect(hidden).toContain('<meta name="robots" content="noindex">');
  });

  it("serves the built scripts but never a source map", async () => {
    expect((await fetch(`${base}/sf-assets/index-A.js`)).status).toBe(200);
    expect((await fetch(`${base}/sf-assets/index-A.js.map`)).status).toBe(404);
  });
});
