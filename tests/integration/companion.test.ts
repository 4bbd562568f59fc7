import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommerceError, type CommercePort } from "../../app/providers/commerce/port";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, enc, mgid, pgid, vgid } from "./products-fixtures";

let app: TestApp;
let editor: string;
let vendorA: { id: string; token: string };
let vendorB: { id: string; token: string };
let vendorAId: string;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  editor = (await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] })).token;
  const va = await db.vendor.create({ data: { name: "Vendor A", handle: "vendor-a" } });
  const vb = await db.vendor.create({ data: { name: "Vendor B", handle: "vendor-b" } });
  vendorAId = va.id;
  vendorA = await app.createUser({ role: "VENDOR", vendorId: va.id });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: vb.id });
  await createProduct(db, { n: 301, title: "Linen Shirt", vendorId: va.id, companion: { taobao_id: "6400301", taobao_title: "亚麻衬衫" } });
  await createProduct(db, { n: 302, title: "Wool Coat", vendorId: vb.id });
  await createProduct(db, { n: 303, title: "No Companion Yet", companion: false });
  await createProduct(db, { n: 304, title: "Archived Tee", status: "archived", vendorId: va.id, companion: { status: "archived" } });
  await createProduct(db, { n: 305, title: "Draft Product", status: "draft" });
  await createProduct(db, { n: 306, title: "Status Walker", status: "draft" });
  await createProduct(db, { n: 307, title: "Options Shirt", colours: { Navy: "#1f2a44", Sand: "#d6c29f", Rust: "#a14a2a" }, sizes: ["S", "M"] });
  await createProduct(db, { n: 308, title: "One Size Scarf", sizes: ["One Size"] });
  await createProduct(db, { n: 309, title: "Scheduled Shirt", companion: false });
  await createProduct(db, { n: 310, title: "Inventory Shirt", inventory: 2 });
});
afterAll(() => app?.close());

async function withCommerce<K extends keyof CommercePort>(name: K, impl: CommercePort[K], run: () => Promise<void>) {
  const commerce = app.ctx.commerce as unknown as Record<string, unknown>;
  const original = commerce[name];
  commerce[name] = impl;
  try {
    await run();
  } finally {
    commerce[name] = original;
  }
}

const C = "/shopify/companion";

describe("create", () => {
  it("creates the companion of an existing product (201)", async () => {
    const res = await app.api("POST", C, { token: editor, body: { product_id: "303", taobao_id: "6400303", taobao_title: "新品" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      shopify_product_id: pgid(303),
      taobao_id: "6400303",
      taobao_title: "新品",
      status: "draft",
      status_reason: null,
      material_sections: [],
      presale_variant_ids: [],
      scheduled_publish_date: null,
      tryon_active: false,
      verified_at: null,
      product: { id: pgid(303), title: "No Companion Yet", status: "active" },
    });
  });

  it("answers 409 when the product has one, 404 for an unknown product, 400 without product_id", async () => {
    const again = await app.api("POST", C, { token: editor, body: { product_id: pgid(303) } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This product already has a companion");
    const unknown = await app.api("POST", C, { token: editor, body: { product_id: "999999" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Product not found");
    const missing = await app.api("POST", C, { token: editor, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("No product ID provided");
  });
});

describe("getters (SPEC §8: null when unknown)", () => {
  it("GET /{id} by product GID, bare number or companion id; null when unknown", async () => {
    const byGid = await app.api("GET", `${C}/${enc(pgid(301))}`, { token: editor });
    expect(byGid.status).toBe(200);
    expect(byGid.body.taobao_id).toBe("6400301");
    expect((await app.api("GET", `${C}/301`, { token: editor })).body.id).toBe(byGid.body.id);
    expect((await app.api("GET", `${C}/${byGid.body.id}`, { token: editor })).body.shopify_product_id).toBe(pgid(301));
    const unknown = await app.api("GET", `${C}/424242`, { token: editor });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toBeNull();
  });

  it("public/{id}: the public part of a visible product's companion; null for hidden or unknown", async () => {
    const res = await app.api("GET", `${C}/public/301`);
    expect(res.status).toBe(200);
    expect(res.body.shopify_product_id).toBe(pgid(301));
    expect(res.body).not.toHaveProperty("taobao_id");
    expect(res.body).not.toHaveProperty("taobao_title");
    expect(res.body).not.toHaveProperty("status_reason");
    expect((await app.api("GET", `${C}/public/305`)).body).toBeNull();
    expect((await app.api("GET", `${C}/public/424242`)).body).toBeNull();
  });

  it("public without an id answers 400 No product ID provided", async () => {
    for (const path of [`${C}/public`, `${C}/public/undefined`, `${C}/public/null`, `${C}/public/%20`]) {
      const res = await app.api("GET", path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.message).toBe("No product ID provided");
    }
  });

  it("nla/{handle}: by handle, also for archived products; null when unknown", async () => {
    const res = await app.api("GET", `${C}/nla/archived-tee-304`);
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({ id: pgid(304), status: "archived" });
    expect(res.body.status).toBe("archived");
    expect((await app.api("GET", `${C}/nla/no-such-handle`)).body).toBeNull();
  });

  it("taobao/{id} and check-imported", async () => {
    expect((await app.api("GET", `${C}/taobao/6400301`, { token: editor })).body.shopify_product_id).toBe(pgid(301));
    expect((await app.api("GET", `${C}/taobao/1`, { token: editor })).body).toBeNull();
    const importer = (await app.createUser({ role: "ADMIN", permissions: ["catalog.import"] })).token;
    const yes = await app.api("GET", `${C}/check-imported/6400301`, { token: importer });
    expect(yes.status).toBe(200);
    expect(yes.body).toBe(true);
    expect((await app.api("GET", `${C}/check-imported/1`, { token: importer })).body).toBe(false);
    expect((await app.api("GET", `${C}/check-imported/1`, { token: editor })).status).toBe(403);
  });
});

describe("vendor scope", () => {
  it("a vendor sees their own products' companions only; admins see all", async () => {
    expect((await app.api("GET", `${C}/vendor/301`, { token: vendorA.token })).body.shopify_product_id).toBe(pgid(301));
    const foreign = await app.api("GET", `${C}/vendor/302`, { token: vendorA.token });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toBeNull();
    expect((await app.api("GET", `${C}/vendor/302`, { token: vendorB.token })).body.shopify_product_id).toBe(pgid(302));
    expect((await app.api("GET", `${C}/vendor/302`, { token: editor })).body.shopify_product_id).toBe(pgid(302));
    const shopper = await app.createUser();
    expect((await app.api("GET", `${C}/vendor/301`, { token: shopper.token })).status).toBe(403);
  });

  it("vendor/bulk: [] for an empty list; a vendor's own companions in the order asked", async () => {
    const empty = await app.api("POST", `${C}/vendor/bulk`, { token: vendorA.token, body: { ids: [] } });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    const mine = await app.api("POST", `${C}/vendor/bulk`, { token: vendorA.token, body: { ids: ["304", pgid(302), "301", "999"] } });
    expect(mine.body.map((c: { shopify_product_id: string }) => c.shopify_product_id)).toEqual([pgid(304), pgid(301)]);
    const admin = await app.api("POST", `${C}/vendor/bulk`, { token: editor, body: { ids: ["302", "301"] } });
    expect(admin.body.map((c: { shopify_product_id: string }) => c.shopify_product_id)).toEqual([pgid(302), pgid(301)]);
    expect((await app.api("POST", `${C}/vendor/bulk`, { token: vendorA.token, body: {} })).status).toBe(400);
    expect(vendorAId).toBeTruthy();
  });
});

describe("update and verify", () => {
  it("PUT updates the companion's own fields", async () => {
    const res = await app.api("PUT", `${C}/301`, {
      token: editor,
      body: { taobao_title: "新标题", tryon_active: true, material_sections: [{ title: "Care", content: "Cold wash" }], flat_image_url: "/uploads/images/flat.png" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ taobao_title: "新标题", tryon_active: true, material_sections: [{ title: "Care", content: "Cold wash" }], flat_image_url: "/uploads/images/flat.png" });
  });

  it("PUT refuses an empty update, bad sections and unknown companions", async () => {
    expect((await app.api("PUT", `${C}/301`, { token: editor, body: {} })).body.error.message).toBe("Nothing to update: send at least one field");
    expect((await app.api("PUT", `${C}/301`, { token: editor, body: { material_sections: [{ title: "", content: "x" }] } })).status).toBe(400);
    const unknown = await app.api("PUT", `${C}/424242`, { token: editor, body: { tryon_active: true } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Product companion not found");
  });

  it("verify sets verified_at and makes the companion and its product active", async () => {
    const res = await app.api("POST", `${C}/verify/305`, { token: editor });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("active");
    expect(Date.parse(res.body.verified_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.body.product.status).toBe("active");
    expect((await app.database.db.product.findUnique({ where: { id: pgid(305) } }))!.status).toBe("active");
  });

  it("verify refuses archived companions and unknown ids", async () => {
    const archived = await app.api("POST", `${C}/verify/304`, { token: editor });
    expect(archived.status).toBe(409);
    expect((await app.api("POST", `${C}/verify/424242`, { token: editor })).status).toBe(404);
  });
});

describe("status transitions", () => {
  const move = (status: string, reason?: string) => app.api("POST", `${C}/update-status/306`, { token: editor, body: { status, reason } });
  const productStatus = async () => (await app.database.db.product.findUnique({ where: { id: pgid(306) } }))!.status;

  it("walks every allowed transition, with the product's status following", async () => {
    const steps: [string, string, string][] = [
      ["pending_review", "draft", "Ready for review"],
      ["active", "active", "Looks good"],
      ["draft", "draft", "Needs new photos"],
      ["pending_review", "draft", ""],
      ["active", "active", ""],
      ["archived", "archived", "Discontinued"],
      ["draft", "draft", "Back in the range"],
    ];
    for (const [status, product, reason] of steps) {
      const res = await move(status, reason || undefined);
      expect(res.status, `→ ${status}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.status).toBe(status);
      expect(res.body.status_reason).toBe(reason || null);
      expect(await productStatus()).toBe(product);
    }
  });

  it("refuses other transitions with 409 naming both states", async () => {
    const res = await move("active");
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("Cannot change a companion's status from draft to active (from draft: pending_review)");
    const archive = await move("archived");
    expect(archive.status).toBe(409);
    expect(archive.body.error.message).toContain("from draft to archived");
    const same = await move("draft");
    expect(same.status).toBe(409);
    expect(same.body.error.message).toBe("The companion is already draft");
    expect((await move("deleted")).status).toBe(400);
    expect(await productStatus()).toBe("draft");
  });

  it("a store refusal leaves the status unchanged", async () => {
    await withCommerce(
      "setProductStatus",
      async () => {
        throw new CommerceError("Product can't be activated without a price", [], 422);
      },
      async () => {
        await move("pending_review");
        const res = await move("active");
        expect(res.status).toBe(422);
        expect(res.body.error.message).toBe("Product can't be activated without a price");
      },
    );
    expect((await app.api("GET", `${C}/306`, { token: editor })).body.status).toBe("pending_review");
  });
});

describe("option values", () => {
  it("renames a value: options and variant titles follow", async () => {
    const res = await app.api("PATCH", `${C}/307/option-value`, { token: editor, body: { optionName: "Color", from: "Sand", to: "Desert" } });
    expect(res.status).toBe(200);
    expect(res.body.options.find((o: { name: string }) => o.name === "Color").values).toEqual(["Navy", "Desert", "Rust"]);
    expect(res.body.variantCount).toBe(6);
    const p = await app.api("GET", "/products/307");
    expect(p.body.variants.map((v: { title: string }) => v.title)).toContain("Desert / M");
    expect(p.body.variants.map((v: { title: string }) => v.title)).not.toContain("Sand / M");
  });

  it("refuses renaming onto an existing value, unknown options and values", async () => {
    const clash = await app.api("PATCH", `${C}/307/option-value`, { token: editor, body: { optionName: "Color", from: "Navy", to: "Rust" } });
    expect(clash.status).toBe(409);
    expect(clash.body.error.message).toBe("Color already has a value Rust");
    expect((await app.api("PATCH", `${C}/307/option-value`, { token: editor, body: { optionName: "Fabric", from: "a", to: "b" } })).body.error.message).toBe(
      "The product has no option named Fabric",
    );
    expect((await app.api("PATCH", `${C}/307/option-value`, { token: editor, body: { optionName: "Color", from: "Pink", to: "b" } })).status).toBe(404);
    expect((await app.api("PATCH", `${C}/307/option-value`, { token: editor, body: { optionName: "Color", from: "Navy" } })).status).toBe(400);
  });

  it("deletes a value with its variants and drops them from the presale list", async () => {
    const presale = await app.api("PATCH", `${C}/presale-variants/307`, { token: editor, body: { variant_ids: [vgid(307, 4), vgid(307, 0)] } });
    expect(presale.body.presale_variant_ids).toEqual([vgid(307, 4), vgid(307, 0)]);
    const res = await app.api("DELETE", `${C}/307/option-value`, { token: editor, body: { optionName: "Color", value: "Rust" } });
    expect(res.status).toBe(200);
    expect(res.body.options.find((o: { name: string }) => o.name === "Color").values).toEqual(["Navy", "Desert"]);
    expect(res.body.variantCount).toBe(4);
    expect((await app.api("GET", `${C}/307`, { token: editor })).body.presale_variant_ids).toEqual([vgid(307, 0)]);
  });

  it("refuses deleting the only value of an option", async () => {
    const res = await app.api("DELETE", `${C}/308/option-value`, { token: editor, body: { optionName: "Size", value: "One Size" } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe("One Size is the only value of Size and cannot be deleted");
  });
});

describe("presale variants and variant media", () => {
  it("refuses variants of another product", async () => {
    const res = await app.api("PATCH", `${C}/presale-variants/307`, { token: editor, body: { variant_ids: [vgid(301, 0)] } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe(`Variant ${vgid(301, 0)} is not a variant of this product`);
  });

  it("accepts bare numeric variant ids and an empty list", async () => {
    expect((await app.api("PATCH", `${C}/presale-variants/307`, { token: editor, body: { variant_ids: ["30701"] } })).body.presale_variant_ids).toEqual([vgid(307, 1)]);
    expect((await app.api("PATCH", `${C}/presale-variants/307`, { token: editor, body: { variant_ids: [] } })).body.presale_variant_ids).toEqual([]);
  });

  it("variant-media/update attaches images to variants", async () => {
    const res = await app.api("POST", `${C}/variant-media/update/307`, { token: editor, body: { pairs: [{ variantId: vgid(307, 1), mediaId: mgid(307, 1) }] } });
    expect(res.status).toBe(200);
    expect(res.body.variants).toEqual([{ id: vgid(307, 1), image: { url: "/uploads/images/test/307-1.jpg", altText: "Options Shirt 1" } }]);
    expect((await app.api("POST", `${C}/variant-media/update/307`, { token: editor, body: { pairs: [{ variantId: vgid(307, 1), mediaId: "nope" }] } })).status).toBe(422);
  });
});

describe("scheduled publishing", () => {
  const future = () => new Date(Date.now() + 3 * 86_400_000);

  it("schedules a future publication: the product is hidden until then, the companion is created", async () => {
    const date = future();
    const res = await app.api("PATCH", `${C}/products/309/scheduled-publish`, { token: editor, body: { scheduled_publish_date: date.toISOString() } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ product_id: pgid(309), scheduled_publish_date: date.toISOString(), publishedAt: date.toISOString() });
    expect((await app.api("GET", "/products/309")).status).toBe(404);
    expect((await app.api("GET", `${C}/309`, { token: editor })).body.scheduled_publish_date).toBe(date.toISOString());
  });

  it("null clears the schedule and restores the product's visibility before it (docs/drops.md: 309 was live)", async () => {
    const res = await app.api("PATCH", `${C}/products/309/scheduled-publish`, { token: editor, body: { scheduled_publish_date: null } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ product_id: pgid(309), scheduled_publish_date: null });
    expect(new Date(res.body.publishedAt).getTime()).toBeLessThan(Date.now());
    expect((await app.api("GET", "/products/309")).status).toBe(200);
    expect((await app.api("GET", `${C}/309`, { token: editor })).body.scheduled_publish_date).toBeNull();
  });

  it("refuses a past date, a bad date and an unknown product", async () => {
    const past = await app.api("PATCH", `${C}/products/309/scheduled-publish`, { token: editor, body: { scheduled_publish_date: new Date(Date.now() - 1000).toISOString() } });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toBe("scheduled_publish_date must be in the future");
    expect((await app.api("PATCH", `${C}/products/309/scheduled-publish`, { token: editor, body: { scheduled_publish_date: "tomorrow" } })).status).toBe(400);
    expect((await app.api("PATCH", `${C}/products/424242/scheduled-publish`, { token: editor, body: { scheduled_publish_date: future().toISOString() } })).status).toBe(404);
  });

  it("bulk answers each item on its own", async () => {
    const date = future();
    const res = await app.api("POST", `${C}/products/scheduled-publish/bulk`, {
      token: editor,
      body: {
        items: [
          { product_id: "309", scheduled_publish_date: date.toISOString() },
          { product_id: "424242", scheduled_publish_date: date.toISOString() },
          { product_id: pgid(310), scheduled_publish_date: new Date(Date.now() - 1000).toISOString() },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { product_id: pgid(309), ok: true, scheduled_publish_date: date.toISOString() },
      { product_id: "gid://shopify/Product/424242", ok: false, scheduled_publish_date: null, error: "Product not found" },
      { product_id: pgid(310), ok: false, scheduled_publish_date: null, error: "scheduled_publish_date must be in the future" },
    ]);
    expect((await app.api("POST", `${C}/products/scheduled-publish/bulk`, { token: editor, body: { items: [] } })).body.results).toEqual([]);
  });
});

describe("sync-inventory and vector sync", () => {
  it("sync-inventory reads the product's levels from the store into the read model", async () => {
    await withCommerce(
      "inventoryLevels",
      async (opts) => {
        expect(opts.productIds).toEqual([pgid(310)]);
        return [
          { productId: pgid(310), variantId: vgid(310, 0), available: 0 },
          { productId: pgid(310), variantId: vgid(310, 1), available: 9 },
        ];
      },
      async () => {
        const res = await app.api("POST", `${C}/sync-inventory/310`, { token: editor });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          productId: pgid(310),
          totalInventory: 9,
          availableForSale: true,
          variants: [
            { id: vgid(310, 0), available: 0, availableForSale: false },
            { id: vgid(310, 1), available: 9, availableForSale: true },
          ],
        });
      },
    );
    expect((await app.api("POST", `${C}/sync-inventory/424242`, { token: editor })).status).toBe(404);
  });

  it("sync-pinecone stores the attribute vector and sets vector_synced_at", async () => {
    const res = await app.api("POST", `${C}/sync-pinecone/301`, { token: editor });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ productId: pgid(301), kind: "attributes", model: "attributes-v1", dimensions: 31 });
    const row = await app.database.db.productEmbedding.findUnique({ where: { product_id_kind: { product_id: pgid(301), kind: "attributes" } } });
    expect(row!.embedding).toHaveLength(31);
    expect(Math.hypot(...row!.embedding)).toBeCloseTo(1, 5);
    expect((await app.api("GET", `${C}/301`, { token: editor })).body.vector_synced_at).toBe(res.body.vector_synced_at);
    // Deterministic: the same product gives the same vector.
    await app.api("POST", `${C}/sync-pinecone/301`, { token: editor });
    const again = await app.database.db.productEmbedding.findUnique({ where: { product_id_kind: { product_id: pgid(301), kind: "attributes" } } });
    expect(again!.embedding).toEqual(row!.embedding);
    expect((await app.api("POST", `${C}/sync-pinecone/424242`, { token: editor })).status).toBe(404);
  });
});
