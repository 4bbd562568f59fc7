/**
 * The client library's image URL builder (app/client/images.ts): our stored images through the
 * image route, Shopify CDN images with `width=`, anything else untouched; widths snapped to the
 * allowed list; candidates capped at the original's width.
 */
import { describe, expect, it } from "vitest";
import { IMAGE_WIDTHS, imageUrl, isResizableImage, responsiveImage, snapImageWidth, thumbnailUrl } from "../../app/client/images";

describe("imageUrl", () => {
  it("sends our stored images through the image route, relative or absolute", () => {
    expect(imageUrl("/uploads/images/demo/coat.jpg", 320, "webp")).toBe("/images/demo/coat.jpg?w=320&fm=webp");
    expect(imageUrl("/uploads/images/demo/coat.jpg", 480)).toBe("/images/demo/coat.jpg?w=480");
    expect(imageUrl("https://shop.example.com/uploads/images/taobao/ab12.jpg", 160, "avif")).toBe("https://shop.example.com/images/taobao/ab12.jpg?w=160&fm=avif");
  });

  it("with appOrigin, an absolute URL on another origin is left alone", () => {
    expect(imageUrl("https://other.example.com/uploads/images/x.jpg", 320, "webp", { appOrigin: "https://shop.example.com" })).toBe("https://other.example.com/uploads/images/x.jpg");
    expect(imageUrl("https://shop.example.com/uploads/images/x.jpg", 320, "webp", { appOrigin: "https://shop.example.com/app" })).toBe("https://shop.example.com/images/x.jpg?w=320&fm=webp");
  });

  it("gives Shopify CDN images a width (keeping their version parameter)", () => {
    expect(imageUrl("https://cdn.shopify.com/s/files/1/coat.jpg?v=3", 320, "webp")).toBe("https://cdn.shopify.com/s/files/1/coat.jpg?v=3&width=320");
    expect(imageUrl("https://shop.example.com/cdn/shop/files/coat.jpg", 160)).toBe("https://shop.example.com/cdn/shop/files/coat.jpg?width=160");
  });

  it("leaves other URLs, data URLs, uploads outside images/ and URLs with a query as they are", () => {
    for (const u of ["https://images.example.com/coat.jpg", "data:image/png;base64,AAAA", "/uploads/exports/x.jpg", "/uploads/images/x.jpg?v=2", "blob:http://x/1", "not a url"]) {
      expect(imageUrl(u, 320, "webp")).toBe(u);
      expect(isResizableImage(u)).toBe(false);
    }
  });

  it("snaps widths to the allowed list (the next one up, the largest at most)", () => {
    expect(snapImageWidth(1)).toBe(80);
    expect(snapImageWidth(300)).toBe(320);
    expect(snapImageWidth(320)).toBe(320);
    expect(snapImageWidth(5000)).toBe(1280);
    expect(imageUrl("/uploads/images/a.png", 333)).toBe("/images/a.png?w=400");
    expect(IMAGE_WIDTHS).toContain(snapImageWidth(123));
  });

  it("thumbnailUrl is a 160 px WebP, and empty for no image", () => {
    expect(thumbnailUrl("/uploads/images/demo/coat.jpg")).toBe("/images/demo/coat.jpg?w=160&fm=webp");
    expect(thumbnailUrl("/uploads/images/demo/coat.jpg", 80)).toBe("/images/demo/coat.jpg?w=80&fm=webp");
    expect(thumbnailUrl(null)).toBe("");
    expect(thumbnailUrl(undefined)).toBe("");
  });
});

describe("responsiveImage", () => {
  it("answers src, srcset, sizes and AVIF/WebP sources for our images", () => {
    const r = responsiveImage("/uploads/images/c.jpg", { widths: [320, 160, 300], sizes: "50vw" });
    expect(r.src).toBe("/images/c.jpg?w=320");
    expect(r.srcSet).toBe("/images/c.jpg?w=160 160w, /images/c.jpg?w=320 320w");
    expect(r.sizes).toBe("50vw");
    expect(r.sources.map((s) => s.type)).toEqual(["image/avif", "image/webp"]);
    expect(r.sources[1].srcSet).toBe("/images/c.jpg?w=160&fm=webp 160w, /images/c.jpg?w=320&fm=webp 320w");
  });

  it("caps candidates at the original's width (plus the one that covers it)", () => {
    const r = responsiveImage("/uploads/images/c.jpg", { widths: [320, 480, 640, 960, 1280], sizes: "100vw", intrinsicWidth: 600 });
    expect(r.srcSet?.split(", ").map((c) => c.split(" ")[1])).toEqual(["320w", "480w", "640w"]);
    const tiny = responsiveImage("/uploads/images/c.jpg", { widths: [320, 480], sizes: "100vw", intrinsicWidth: 100 });
    expect(tiny.srcSet).toBe("/images/c.jpg?w=320 320w");
  });

  it("Shopify images get a srcset but no <source>s; other images neither", () => {
    const shop = responsiveImage("https://cdn.shopify.com/s/files/c.jpg", { widths: [160, 320], sizes: "50vw" });
    expect(shop.srcSet).toBe("https://cdn.shopify.com/s/files/c.jpg?width=160 160w, https://cdn.shopify.com/s/files/c.jpg?width=320 320w");
    expect(shop.sources).toEqual([]);
    expect(responsiveImage("https://x.example/c.jpg", { widths: [160], sizes: "1px" })).toEqual({ src: "https://x.example/c.jpg", sources: [] });
  });
});
