/**
 * The Taobao import's pure parts: item validation, references, the glossary translation (titles,
 * colours, sizes), prices, the mapping of every demo item, and the shipped catalogue file.
 */
import { describe, expect, it } from "vitest";
import { parseTaobaoItem, parseTaobaoReference, TaobaoSourceError } from "../../app/providers/taobao/port";
import { readColour, readSize, readTitle, optionName, translateAttributeValue } from "../../app/providers/taobao/translate";
import { assembleProduct, convertPrice, ImportInputError, mapItem, type StoreConventions } from "../../app/services/taobao-import/mapping.server";
import { buildTaobaoDemoCatalogue, compositionZh } from "../../prisma/demo/taobao/catalogue";
import { DEMO_TAOBAO_CATALOGUE } from "../../app/providers/taobao/local.server";
import { splitReferences } from "../../app/services/taobao-import/jobs.server";

const rule = { TAOBAO_CNY_RATE: 0.14, TAOBAO_PRICE_MARKUP: 2.5, TAOBAO_PRICE_ADD: 0, TAOBAO_PRICE_ENDING: ".99" };
const store: StoreConventions = { name: "Test", target_gender: "both", size_recommendation: null, colourOption: "Color", sizeOption: "Size", sizes: [] };
const raw = (id: string) => structuredClone(DEMO_TAOBAO_CATALOGUE.items.find((i) => i.num_iid === id)!);

describe("references", () => {
  it.each([
    ["720394001000", { kind: "item", id: "720394001000" }],
    ["https://item.taobao.com/item.htm?spm=a1z10&id=720394001000", { kind: "item", id: "720394001000" }],
    ["detail.tmall.com/item.htm?id=720394001000", { kind: "item", id: "720394001000" }],
    ["shop:106512345", { kind: "shop", shopId: "106512345", page: 1 }],
    ["shop:106512345?page=3", { kind: "shop", shopId: "106512345", page: 3 }],
    ["https://shop106512345.taobao.com/?page=2", { kind: "shop", shopId: "106512345", page: 2 }],
  ])("%s", (input, expected) => expect(parseTaobaoReference(input)).toEqual(expected));
  it.each(["abc", "123", "https://example.com/item.htm?id=720394001000", "https://item.taobao.com/item.htm"])("refuses %s", (input) => expect(parseTaobaoReference(input)).toBeNull());
  it("splits text lists", () => expect(splitReferences(["1, 2\n3；4", " 5 "])).toEqual(["1", "2", "3", "4", "5"]));
});

describe("glossary translation", () => {
  it.each([
    ["2026秋冬新款男士宽松纯棉连帽卫衣 百搭", "Relaxed Cotton Hoodie", "menswear", "Hoodies & Sweatshirts"],
    ["简约女装缎面连衣裙 百搭", "Satin Dress", "womenswear", "Dresses"],
    ["日系男修身赤耳牛仔牛仔裤 简约百搭", "Slim Selvedge Denim Jeans", "menswear", "Jeans"],
    ["ins风男装条纹短款有机棉T恤 简约百搭", "Cropped Striped Organic Cotton T-Shirt", "menswear", "T-Shirts"],
    ["韩版情侣款短款磨毛棉连帽卫衣 高级感", "Cropped Brushed Cotton Hoodie", "both", "Hoodies & Sweatshirts"],
    ["复古男士oversize真丝衬衫 潮流", "Oversized Silk Shirt", "menswear", "Shirts"],
  ])("%s → %s", (zh, title, gender, type) => {
    const f = readTitle(zh);
    expect(f.title).toBe(title);
    expect(f.gender).toBe(gender);
    expect(f.garment?.productType).toBe(type);
  });
  it("reads colour values the way shops write them", () => {
    expect(readColour("A款-黑色")?.en).toBe("Black");
    expect(readColour("奶油白【现货】")?.en).toBe("Cream");
    expect(readColour("雾霾蓝色")).toMatchObject({ en: "Sky Blue", hex: "#9cc3e4" });
    expect(readColour("星空紫灰")?.en).toBe("Grey");
    expect(readColour("梦幻")).toBeNull();
  });
  it.each([
    ["2XL", [], "XXL"],
    ["3XL", [], "XXXL"],
    ["S（建议95-110斤）", [], "S"],
    ["165/88A(M)", [], "M"],
    ["170/92A", [], "L"],
    ["29码", [], "29"],
    ["均码", [], "One Size"],
    ["48", ["EU 46", "EU 48"], "EU 48"],
    ["xl", ["XL"], "XL"],
    ["S码", [], "S"],
  ])("size %s → %s", (value, known, expected) => expect(readSize(value, known as string[])).toBe(expected));
  it("names options and attribute values", () => {
    expect(["颜色分类", "尺码", "尺寸", "款式", "图案"].map(optionName)).toEqual(["Color", "Size", "Size", "Style", "Option"]);
    expect(translateAttributeValue("Care", "干洗 不可机洗")).toBe("Dry clean, do not machine wash");
    expect(translateAttributeValue("Gender", "男女通用")).toBe("Unisex");
    expect(compositionZh("98% cotton, 2% elastane denim")).toBe("棉98% 聚氨酯弹性纤维(氨纶)2%");
  });
});

describe("prices", () => {
  it("converts CNY with the rate, the markup, the fixed add and the ending", () => {
    expect(convertPrice(269, rule)).toBe("94.99"); // 94.15
    expect(convertPrice(100, { ...rule, TAOBAO_PRICE_ENDING: "none" })).toBe("35.00");
    expect(convertPrice(101, { ...rule, TAOBAO_PRICE_ENDING: ".00" })).toBe("36.00"); // 35.35 up to 36
    expect(convertPrice(100, { ...rule, TAOBAO_PRICE_ADD: 5, TAOBAO_PRICE_ENDING: ".95" })).toBe("40.95");
    expect(convertPrice(283.14, { ...rule, TAOBAO_PRICE_MARKUP: 1, TAOBAO_CNY_RATE: 0.1 })).toBe("28.99"); // 28.314
  });
});

describe("item validation and mapping", () => {
  it("refuses an incomplete item, naming the fields", () => {
    const it1 = raw("799000000101");
    expect(() => parseTaobaoItem(it1)).toThrow(new TaobaoSourceError("invalid_item", "The Taobao item is incomplete: missing title, pic_url"));
  });
  it("refuses no SKUs and a zero price", () => {
    expect(() => mapItem(parseTaobaoItem(raw("799000000102")), store, rule)).toThrow(new ImportInputError("The Taobao item has no SKUs: there is nothing to sell"));
    expect(() => mapItem(parseTaobaoItem(raw("799000000103")), store, rule)).toThrow(new ImportInputError("The Taobao item has a price of zero"));
  });
  it("maps every good demo item to options and variants with English names", () => {
    let items = 0;
    for (const w of DEMO_TAOBAO_CATALOGUE.items) {
      if (String(w.num_iid) in DEMO_TAOBAO_CATALOGUE.broken) continue;
      items++;
      const item = parseTaobaoItem(structuredClone(w));
      const m = mapItem(item, store, rule);
      const a = assembleProduct(m, (url) => ({ url: `/uploads/${url.length}.jpg`, hex: "#123456", colourName: "Navy" }));
      expect(a.variants.length, item.title).toBeGreaterThan(0);
      expect(a.variants.length).toBeLessThanOrEqual(item.skus.length);
      expect(m.facts.title).not.toMatch(/[\u3400-\u9fff]/);
      for (const o of a.options) {
        expect(["Color", "Size", "Style"]).toContain(o.name);
        for (const v of o.values) expect(v, `${item.title}: ${o.name}`).not.toMatch(/[\u3400-\u9fff]/);
      }
      for (const v of a.variants) {
        expect(Number(v.price)).toBeGreaterThan(0);
        expect(v.price).toMatch(/\.99$/);
        expect(v.selectedOptions.map((s) => s.name)).toEqual(a.options.map((o) => o.name));
      }
      expect(m.materialSections[0]?.title).toBe("Composition");
    }
    expect(items).toBeGreaterThanOrEqual(50);
  });
  it("names a colour the glossary does not know from its SKU image", () => {
    const w = raw("720394001000");
    const key = Object.keys(w.props_list as Record<string, string>).find((k) => k.startsWith("1627207:"))!;
    (w.props_list as Record<string, string>)[key] = "颜色分类:梦幻款";
    for (const s of (w.skus as { sku: { properties_name: string }[] }).sku) s.properties_name = s.properties_name.replace(/1627207:(\d+):颜色分类:[^;]+/, (m0, vid) => (`1627207:${vid}` === key ? `1627207:${vid}:颜色分类:梦幻款` : m0));
    const m = mapItem(parseTaobaoItem(w), store, rule);
    const a = assembleProduct(m, () => ({ url: "/uploads/x.jpg", hex: "#2c5fb3", colourName: "Blue" }));
    expect(a.options[0].values[0]).toBe("Blue");
    expect(a.variants[0].colorHex).toBe("#2c5fb3");
  });
});

describe("the shipped demo catalogue", () => {
  it("is the builder's output, with at least 50 items and the broken ones", () => {
    const built = buildTaobaoDemoCatalogue();
    expect(JSON.parse(JSON.stringify(built))).toEqual(DEMO_TAOBAO_CATALOGUE);
    expect(built.items.length).toBeGreaterThanOrEqual(50 + 8);
    expect(Object.keys(built.broken)).toHaveLength(8);
    const names = new Set(built.items.flatMap((i) => Object.values((i.props_list ?? {}) as Record<string, string>).map((v) => v.split(":")[0])));
    expect([...names].sort()).toEqual(["尺寸", "尺码", "款式", "颜色分类"].sort());
    const shops = new Set(built.items.map((i) => i.shop_id));
    expect(shops.size).toBeGreaterThanOrEqual(6);
  });
});
