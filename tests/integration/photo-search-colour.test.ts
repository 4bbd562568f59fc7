/**
 * Photo search in the photo's colour (issue 20, item 6): the garment colour read from the photo
 * (background left out) selects catalogue colours as a typed colour word does, and each result
 * card carries `matchedVariant` (that colour's variant, its image and id) the way text search
 * does — so a photo of a red tee shows the red tee, not the product's white featured photo.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadsDir } from "../../app/providers/storage.server";
import { indexProduct } from "../../app/services/product-index.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderGarment, writeFixtureImage } from "../helpers/garment-images";
import { createProduct, pgid } from "./products-fixtures";

let app: TestApp;
const photos: Record<string, Buffer> = {};

interface Card {
  id: string;
  featuredImage: { url: string } | null;
  matchedVariant?: { id: string; colour: string; image: { url: string } | null };
}

const form = (photo: Buffer) => {
  const fd = new FormData();
  fd.append("image", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "photo.jpg");
  return fd;
};
const search = (photo: Buffer) => app.api("POST", "/vision/product-search", { body: form(photo) });
const card = (cards: Card[], id: string) => cards.find((c) => c.id === id);

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  photos.redTee = await renderGarment("tshirt", "#c0392b");
  photos.whiteTee = await renderGarment("tshirt", "#f7f7f7");
  photos.greenTee = await renderGarment("tshirt", "#27ae60");
  photos.dress = await renderGarment("dress", "#8e44ad");
  // The tee's featured photo is the white one; its Red variant has the second image.
  await createProduct(db, { n: 811, title: "Classic Tee", productType: "T-Shirt", gender: "both", colours: { White: "#f7f7f7", Red: "#c0392b" }, images: 2 });
  await writeFixtureImage(app.ctx.config, 811, photos.whiteTee);
  const second = path.join(uploadsDir(app.ctx.config), "images", "test", "811-1.jpg");
  fs.writeFileSync(second, photos.redTee);
  // No red variant: the card keeps its own photo.
  await createProduct(db, { n: 812, title: "Wrap Dress", productType: "Dress", gender: "both", colours: { Purple: "#8e44ad" }, images: 1 });
  await writeFixtureImage(app.ctx.config, 812, photos.dress);
  for (const n of [811, 812]) await indexProduct(app.ctx, pgid(n));
}, 180_000);
afterAll(() => app?.close());

describe("POST /vision/product-search in the photo's colour", () => {
  it("reads the photo's colour and gives the matching variant (image, id) on the cards that have it", async () => {
    const res = await search(photos.redTee);
    expect(res.status).toBe(200);
    expect(res.body.colour).toMatchObject({ name: "Red" });
    const tee = card(res.body.results, pgid(811));
    expect(tee).toBeDefined();
    expect(tee!.featuredImage?.url).toBe("/uploads/images/test/811-0.jpg");
    expect(tee!.matchedVariant).toMatchObject({ colour: "Red", image: { url: "/uploads/images/test/811-1.jpg" } });
    const variant = await app.database.db.productVariant.findUniqueOrThrow({ where: { id: tee!.matchedVariant!.id } });
    expect(variant).toMatchObject({ product_id: pgid(811), image_url: "/uploads/images/test/811-1.jpg" });
    expect(card(res.body.results, pgid(812))?.matchedVariant).toBeUndefined();
  });

  it("the URL form answers the same way", async () => {
    const res = await app.api("POST", "/vision/product-search-url", { body: { url: "/uploads/images/test/811-1.jpg" } });
    expect(res.status).toBe(200);
    expect(card(res.body.results, pgid(811))?.matchedVariant).toMatchObject({ colour: "Red" });
  });

  it("a colour the catalogue does not have leaves the cards as they are", async () => {
    const res = await search(photos.greenTee);
    expect(res.status).toBe(200);
    expect(res.body.colour).toMatchObject({ name: expect.stringMatching(/green/i) });
    expect(res.body.results.length).toBeGreaterThan(0);
    expect(res.body.results.every((c: Card) => c.matchedVariant === undefined)).toBe(true);
  });

  it("refuses a file that is not an image (400) without searching", async () => {
    const fd = new FormData();
    fd.append("image", new Blob(["not a photo"], { type: "image/jpeg" }), "photo.jpg");
    const res = await app.api("POST", "/vision/product-search", { body: fd });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.results).toBeUndefined();
  });
});
