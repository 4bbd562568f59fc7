import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { garmentTypeFrom, parseComposition, withMaterialBlock } from "../../app/services/companion.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid } from "./products-fixtures";

let app: TestApp;
let editor: string;
const C = "/shopify/companion";

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  editor = (await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] })).token;
  await createProduct(db, {
    n: 401,
    title: "Linen-Blend Shirt",
    productType: "Shirts",
    descriptionHtml: "<p>A relaxed shirt.</p><ul><li><strong>Composition:</strong> 55% linen, 45% cotton</li><li><strong>Care:</strong> Machine wash cold</li></ul>",
  });
  await db.productCompanion.update({
    where: { shopify_product_id: pgid(401) },
    data: { material_sections: [{ title: "Composition", content: "old" }, { title: "Care", content: "Machine wash cold" }] },
  });
  await createProduct(db, { n: 402, title: "Taobao Tee", productType: "T-Shirts", descriptionHtml: "<p>A soft tee.</p>", companion: { taobao_id: "6400402", taobao_title: "2026春夏新款男士纯棉T恤" } });
  await createProduct(db, { n: 403, title: "Mystery Knit", productType: "Knitwear", descriptionHtml: "<p>Soft and warm.</p>" });
  await createProduct(db, { n: 404, title: "Dress", productType: "Dresses" });
  await createProduct(db, { n: 405, title: "Hoodie", productType: "Hoodies & Sweatshirts" });
  await createProduct(db, { n: 406, title: "Jeans", productType: "Jeans" });

  // Uploaded images: a navy t-shirt on an off-white background, and a half red / half blue square.
  const w = 300;
  const h = 400;
  const tee = await sharp({ create: { width: w, height: h, channels: 3, background: "#f2efe8" } })
    .composite([{ input: await sharp({ create: { width: 180, height: 260, channels: 3, background: "#1f2a44" } }).png().toBuffer(), top: 70, left: 60 }])
    .jpeg({ quality: 92 })
    .toBuffer();
  await app.ctx.storage.put("images/tests/t-shirt-navy-solid.jpg", tee, "image/jpeg");
  const split = await sharp({ create: { width: 200, height: 200, channels: 3, background: "#c0262e" } })
    .composite([{ input: await sharp({ create: { width: 100, height: 200, channels: 3, background: "#2c5fb3" } }).png().toBuffer(), top: 0, left: 100 }])
    .png()
    .toBuffer();
  await app.ctx.storage.put("images/tests/photo-123.png", split, "image/png");
  await app.ctx.storage.put("images/tests/not-an-image.jpg", new TextEncoder().encode("hello"), "image/jpeg");
});
afterAll(() => app?.close());

describe("composition parsing", () => {
  it.each([
    ["55% linen, 45% cotton", [{ fibre: "linen", percent: 55 }, { fibre: "cotton", percent: 45 }]],
    ["Composition: 100% European linen", [{ fibre: "linen", percent: 100 }]],
    ["cotton 95%, elastane 5%", [{ fibre: "cotton", percent: 95 }, { fibre: "elastane", percent: 5 }]],
    ["98% cotton, 2% elastane twill", [{ fibre: "cotton", percent: 98 }, { fibre: "elastane", percent: 2 }]],
    ["40% alpaca, 40% wool, 20% polyamide", [{ fibre: "alpaca", percent: 40 }, { fibre: "wool", percent: 40 }, { fibre: "polyamide", percent: 20 }]],
    ["100% extra-fine merino wool", [{ fibre: "wool", percent: 100 }]],
    ["100% goat suede, cotton lining", [{ fibre: "suede", percent: 100 }]],
    ["棉95% 氨纶5%", [{ fibre: "cotton", percent: 95 }, { fibre: "elastane", percent: 5 }]],
    ["95%棉 5%氨纶", [{ fibre: "cotton", percent: 95 }, { fibre: "elastane", percent: 5 }]],
    ["2026春夏新款男士纯棉T恤", [{ fibre: "cotton", percent: 100 }]],
    ["ins风女士亚麻混纺衬衫", [{ fibre: "linen", percent: null }]],
    ["70% wool, polyamide", [{ fibre: "wool", percent: 70 }, { fibre: "polyamide", percent: 30 }]],
    ["82% viscose, 18% silk velvet", [{ fibre: "viscose", percent: 82 }, { fibre: "silk", percent: 18 }]],
    ["A soft tee for every day.", []],
  ])("%s", (text, expected) => {
    expect(parseComposition(text)).toEqual(expected);
  });
});

describe("POST reanalyze-materials/{id}", () => {
  it("reads the composition from the description and keeps the other sections", async () => {
    const res = await app.api("POST", `${C}/reanalyze-materials/401`, { token: editor });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      found: true,
      // No material category tree in this database: nothing to map onto (tests/integration/materials.test.ts).
      materials: [],
      fibres: [
        { fibre: "linen", percent: 55 },
        { fibre: "cotton", percent: 45 },
      ],
      material_sections: [
        { title: "Composition", content: "55% linen, 45% cotton" },
        { title: "Care", content: "Machine wash cold" },
      ],
    });
    expect((await app.api("GET", `${C}/401`, { token: editor })).body.material_sections[0].content).toBe("55% linen, 45% cotton");
  });

  it("falls back to the Taobao title", async () => {
    const res = await app.api("POST", `${C}/reanalyze-materials/402`, { token: editor });
    expect(res.body.material_sections).toEqual([{ title: "Composition", content: "100% cotton" }]);
  });

  it("answers found: false and changes nothing without fibres; 404 for an unknown companion", async () => {
    const res = await app.api("POST", `${C}/reanalyze-materials/403`, { token: editor });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ found: false, fibres: [], material_sections: [], materials: [] });
    expect((await app.api("POST", `${C}/reanalyze-materials/424242`, { token: editor })).status).toBe(404);
  });
});

describe("POST apply-material-sections/{id}", () => {
  const sections = [
    { title: "Composition", content: "55% linen, 45% cotton" },
    { title: "Care", content: "Wash < 30°C & line dry" },
  ];

  it("stores the sections and writes them into the description through the store", async () => {
    const res = await app.api("POST", `${C}/apply-material-sections/401`, { token: editor, body: { material_sections: sections } });
    expect(res.status).toBe(200);
    expect(res.body.material_sections).toEqual(sections);
    expect(res.body.descriptionHtml).toContain("<h4>Care</h4><p>Wash &lt; 30°C &amp; line dry</p>");
    expect(res.body.descriptionHtml.startsWith("<p>A relaxed shirt.</p>")).toBe(true);
    const p = await app.api("GET", "/products/401");
    expect(p.body.descriptionHtml).toBe(res.body.descriptionHtml);
    expect(p.body.description).toContain("Wash < 30°C & line dry");
  });

  it("replaces the block written before instead of appending twice", async () => {
    const next = [{ title: "Composition", content: "100% linen" }];
    const res = await app.api("POST", `${C}/apply-material-sections/401`, { token: editor, body: { material_sections: next } });
    expect(res.body.descriptionHtml.match(/material-sections -->/g)).toHaveLength(2);
    expect(res.body.descriptionHtml).toContain("100% linen");
    expect(res.body.descriptionHtml).not.toContain("line dry");
    // An empty list removes the block.
    const cleared = await app.api("POST", `${C}/apply-material-sections/401`, { token: editor, body: { material_sections: [] } });
    expect(cleared.body.descriptionHtml).not.toContain("material-sections");
    expect(withMaterialBlock("", next)).toContain("<h4>Composition</h4>");
  });

  it("validates the sections", async () => {
    expect((await app.api("POST", `${C}/apply-material-sections/401`, { token: editor, body: {} })).status).toBe(400);
    expect((await app.api("POST", `${C}/apply-material-sections/401`, { token: editor, body: { material_sections: [{ title: "x" }] } })).status).toBe(400);
    expect((await app.api("POST", `${C}/apply-material-sections/424242`, { token: editor, body: { material_sections: sections } })).status).toBe(404);
  });
});

describe("POST analyze-image-url", () => {
  const analyse = (body: unknown) => app.api("POST", `${C}/analyze-image-url`, { token: editor, body });

  it("answers the garment's colours without the background, the size, and the type from the file name", async () => {
    const res = await analyse({ url: "/uploads/images/tests/t-shirt-navy-solid.jpg" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ width: 300, height: 400, aspectRatio: 0.75, orientation: "portrait", garmentType: "T-Shirts", garmentTypeSource: "filename" });
    expect(res.body.dominantColors[0].name).toBe("Navy");
    expect(res.body.dominantColors[0].share).toBeGreaterThan(0.9);
    expect(res.body.dominantColors.map((c: { name: string }) => c.name)).not.toContain("Off white");
  });

  it("accepts a storage key and our own absolute URL; reads the type from the alt text", async () => {
    const res = await analyse({ url: "images/tests/photo-123.png", alt: "Red and blue hoodie" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ width: 200, height: 200, aspectRatio: 1, orientation: "square", garmentType: "Hoodies & Sweatshirts", garmentTypeSource: "alt" });
    const names = res.body.dominantColors.map((c: { name: string }) => c.name).sort();
    expect(names).toEqual(["Blue", "Red"]);
    for (const c of res.body.dominantColors) expect(c.share).toBeCloseTo(0.5, 1);
    const abs = await analyse({ url: "http://localhost:3000/uploads/images/tests/photo-123.png" });
    expect(abs.status).toBe(200);
    expect(abs.body.garmentType).toBeNull();
  });

  it("refuses external URLs in local mode, and answers 404/422 for missing or unreadable files", async () => {
    const ext = await analyse({ url: "https://img.alicdn.com/some/photo.jpg" });
    expect(ext.status).toBe(422);
    expect(ext.body.error.message).toBe("Only uploaded images can be analysed in local mode");
    expect((await analyse({ url: "/uploads/../../etc/passwd" })).status).toBe(422);
    expect((await analyse({ url: "/uploads/images/tests/missing.jpg" })).status).toBe(404);
    const bad = await analyse({ url: "/uploads/images/tests/not-an-image.jpg" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe("The file is not an image that can be read");
    expect((await analyse({})).status).toBe(400);
  });

  it("matches product types in file names and texts", () => {
    const types = ["T-Shirts", "Shirts", "Hoodies & Sweatshirts", "Jeans", "Dresses", "Knitwear"];
    expect(garmentTypeFrom("t-shirt-black-solid.jpg", types)).toBe("T-Shirts");
    expect(garmentTypeFrom("tshirt_front.png", types)).toBe("T-Shirts");
    expect(garmentTypeFrom("oxford-shirt-white.jpg", types)).toBe("Shirts");
    expect(garmentTypeFrom("IMG_2041.jpg", types)).toBeNull();
    expect(garmentTypeFrom("Washed jeans, front", types)).toBe("Jeans");
    expect(garmentTypeFrom("summer-dress.webp", types)).toBe("Dresses");
    expect(garmentTypeFrom("grey sweatshirt", types)).toBe("Hoodies & Sweatshirts");
  });
});
