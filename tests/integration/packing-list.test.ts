/**
 * The packing list (issue 16): /app/orders/packing-list?ids=…&format=html|pdf through its loader
 * (app/routes/app.orders_.packing-list.tsx) and the document builders
 * (app/services/orders/packing-list.server.ts). HTML: every order on its own printed page with the
 * shop, stores, order name and date, ship-to, items (title, variant, SKU, quantity, image), note —
 * escaped; cancelled items left out. PDF: a download that starts with %PDF and holds the same text
 * (read back from its content streams, inflated); characters outside the standard font's WinAnsi
 * replaced and said so. Refusals: no ids / bad format / more than 50 → 400, unknown ids → 404 naming
 * them, an admin without orders.manage → 403, signed out → login.
 */
import { inflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderItemStatus } from "@prisma/client";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { MAX_BULK_ORDERS } from "../../app/contract/admin-orders-bulk";
import { loadPackingList, packingListHtml, packingListPdf, shopNameOf, toWinAnsi } from "../../app/services/orders/packing-list.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { refusal, staffRequest as req, thrownResponse as thrown } from "../helpers/route";
import { createProduct, pgid, vgid } from "./products-fixtures";

type Route = typeof import("../../app/routes/app.orders_.packing-list");
let route: Route;
let app: TestApp;
let admin: { token: string };
let noPerm: { token: string };

const oid = (n: number) => `gid://shopify/Order/${n}`;
const enc = encodeURIComponent;
const CREATED = new Date("2026-11-20T15:30:00Z");

async function createOrder(n: number, o: { note?: string | null; address?: Record<string, string> | null; items: { title: string; variant?: string | null; sku?: string | null; qty?: number; status?: OrderItemStatus; product?: number; image?: string }[] }) {
  await app.database.db.order.create({
    data: {
      id: oid(n),
      name: `#${n}`,
      order_number: n,
      email: `c${n}@example.test`,
      status: "open",
      financial_status: "PAID",
      total_price: new Prisma.Decimal(100),
      note: o.note ?? null,
      shipping_address: o.address === null ? Prisma.DbNull : (o.address ?? { first_name: "Ann", last_name: "Lee", address1: "1 Main St", address2: "Flat 2", city: "Springfield", province: "IL", zip: "62701", country: "United States" }),
      created_at: CREATED,
      items: {
        create: o.items.map((it, i) => ({
          id: `gid://shopify/LineItem/${n}${i}`,
          product_id: it.product ? pgid(it.product) : null,
          variant_id: it.product ? vgid(it.product, 0) : null,
          title: it.title,
          variant_title: it.variant === undefined ? "Black / S" : it.variant,
          sku: it.sku === undefined ? `SKU-${n}-${i}` : it.sku,
          quantity: it.qty ?? 1,
          price: new Prisma.Decimal(50),
          status: it.status ?? "unfulfilled",
          image_url: it.image ?? null,
          created_at: new Date(CREATED.getTime() + i),
        })),
      },
    },
  });
}

const load = (query: string, token: string | null = admin.token) => route.loader({ request: req(`/app/orders/packing-list${query}`, token), params: {}, context: {} });
const refusalBody = async (p: Promise<unknown>) => {
  const res = await thrown(p);
  return { status: res.status, message: ((await res.json()) as { staffError: string }).staffError };
};

/** The text a PDF draws (pdfkit: hex strings in TJ arrays), its content streams inflated when compressed. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  const contents: string[] = [];
  for (const m of raw.matchAll(/<<([^]*?)>>\s*stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = raw.indexOf("endstream", start);
    const bytes = pdf.subarray(start, end);
    contents.push(/\/FlateDecode/.test(m[1]) ? inflateSync(bytes).toString("latin1") : bytes.toString("latin1"));
  }
  const lines: string[] = [];
  for (const c of contents) {
    for (const tj of c.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...tj[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join("");
      lines.push(Buffer.from(hex, "hex").toString("latin1"));
    }
  }
  return lines.join("\n");
}

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  route = await import("../../app/routes/app.orders_.packing-list");
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Atelier", handle: "atelier" } });
  const store = await db.store.create({ data: { name: "Atelier Store", handle: "atelier-store", vendor_id: vendor.id } });
  await createProduct(db, { n: 501, title: "Wool Coat", storeId: store.id, vendorId: vendor.id });
  admin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  noPerm = await app.createUser({ role: "ADMIN", permissions: ["products.manage"] });
  await createOrder(6001, {
    note: 'Gift wrap <script>alert("x")</script> & thanks',
    items: [
      { title: "Wool Coat", qty: 2, product: 501, image: "https://cdn.shopify.com/s/files/coat.jpg" },
      { title: 'Scarf <b>"bold"</b>', variant: null, sku: "SC&1" },
      { title: "Old Hat", status: "cancelled" },
    ],
  });
  await createOrder(6002, { address: { first_name: "Mei", last_name: "王", address1: "東京都 1-2", city: "Łódź", country: "Japan" }, items: [{ title: "和服 Kimono", variant: "Ｍ", status: "shipped" }] });
  await createOrder(6003, { address: null, items: [{ title: "Plain Tee", image: "javascript:alert(1)" }] });
});
afterAll(() => app?.close());

describe("access and refusals", () => {
  it("needs orders.manage: 403 for another admin, the login page when signed out", async () => {
    expect(await refusal(load(`?ids=${enc(oid(6001))}`, noPerm.token))).toBe(403);
    expect(await refusal(load(`?ids=${enc(oid(6001))}`, null))).toBe("login");
  });

  it("answers 400 without ids, with a format other than html or pdf, and above 50 orders", async () => {
    expect(await refusalBody(load(""))).toEqual({ status: 400, message: "ids: Choose at least one order: ids=<id,id,…>" });
    expect(await refusalBody(load("?ids=,%20,"))).toMatchObject({ status: 400 });
    expect(await refusalBody(load(`?ids=${enc(oid(6001))}&format=docx`))).toEqual({ status: 400, message: "format: format must be html or pdf" });
    const many = Array.from({ length: MAX_BULK_ORDERS + 1 }, (_, i) => 6000 + i).join(",");
    expect(await refusalBody(load(`?ids=${many}`))).toEqual({ status: 400, message: `ids: At most ${MAX_BULK_ORDERS} orders per packing list: choose fewer orders` });
  });

  it("answers 404 naming the unknown ids (the known ones are not printed alone)", async () => {
    expect(await refusalBody(load(`?ids=${enc(oid(6001))},999998,${enc("gid://shopify/Order/999999")}`))).toEqual({
      status: 404,
      message: "Orders not found: 999998, gid://shopify/Order/999999",
    });
    expect(await refusalBody(load("?ids=424242&format=pdf"))).toEqual({ status: 404, message: "Order not found: 424242" });
  });
});

describe("HTML", () => {
  it("is a print-ready page: one section per order in the order asked, a page break after each, items, ship-to and note, every value escaped", async () => {
    const res = await load(`?ids=6002,${enc(oid(6001))}&ids=6003&format=html`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect([...html.matchAll(/data-order="([^"]+)"/g)].map((m) => m[1])).toEqual(["#6002", "#6001", "#6003"]);
    expect(html).toMatch(/@media print\{[^]*break-after:page/);
    expect(html).toContain("@page{size:A4");
    const o1 = html.slice(html.indexOf('data-order="#6001"'), html.indexOf('data-order="#6003"'));
    expect(o1).toContain("Fashion Discovery");
    expect(o1).toContain("Atelier Store");
    expect(o1).toContain("Packing list · Order #6001");
    expect(o1).toContain("Placed 20 Nov 2026");
    for (const line of ["Ann Lee", "1 Main St", "Flat 2", "Springfield, IL 62701", "United States"]) expect(o1).toContain(`<p>${line}</p>`);
    expect(o1).toContain("<strong>Wool Coat</strong>");
    expect(o1).toContain("SKU-6001-0");
    expect(o1).toMatch(/<td class="qty">2<\/td>/);
    expect(o1).toContain('<img src="https://cdn.shopify.com/s/files/coat.jpg" alt="">');
    // Escaped: the item title, the SKU and the note.
    expect(o1).toContain("<strong>Scarf &lt;b&gt;&quot;bold&quot;&lt;/b&gt;</strong>");
    expect(o1).toContain("SC&amp;1");
    expect(o1).toContain("Gift wrap &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; thanks");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<b>");
    // The cancelled item is not packed.
    expect(o1).not.toContain("Old Hat");
    expect(o1).toContain("1 cancelled item is not listed.");
    // Characters of any script as written; an item already sent says so.
    const o2 = html.slice(html.indexOf('data-order="#6002"'), html.indexOf('data-order="#6001"'));
    expect(o2).toContain("和服 Kimono");
    expect(o2).toContain("Łódź");
    expect(o2).toContain("already shipped");
    // No address, and an image URL that is not a web address is left out.
    const o3 = html.slice(html.indexOf('data-order="#6003"'));
    expect(o3).toContain("No shipping address");
    expect(o3).not.toContain("javascript:");
  });

  it("is the default format", async () => {
    const res = await load("?ids=6003");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});

describe("PDF", () => {
  it("downloads as packing-list-<date>.pdf: %PDF with each order's name, items and note on its own page", async () => {
    const res = await load(`?ids=${enc(oid(6001))},6002&format=pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="packing-list-${new Date().toISOString().slice(0, 10)}.pdf"`);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.toString("latin1")).toContain("/FlateDecode");
    const text = pdfText(pdf);
    expect(text).toContain("Packing list · Order #6001");
    expect(text).toContain("Packing list · Order #6002");
    expect(text).toContain("Wool Coat");
    expect(text).toContain("SKU-6001-0");
    expect(text).toContain('Scarf <b>"bold"</b>');
    expect(text).toContain("Springfield, IL 62701");
    expect(text).toContain('Gift wrap <script>alert("x")</script> & thanks');
    expect(text).not.toContain("Old Hat");
    // Two orders, two pages.
    expect(pdf.toString("latin1").match(/\/Type \/Page\b/g)).toHaveLength(2);
  });

  it("replaces what the standard font cannot draw and says so on that order's page; uncompressed with compress: false", async () => {
    const list = await loadPackingList(app.database.db, ["6002", "6003"], "Fashion Discovery", new Date("2026-11-27T10:00:00Z"));
    const pdf = await packingListPdf(list, { compress: false });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.toString("latin1")).not.toContain("/FlateDecode");
    const text = pdfText(pdf);
    expect(text).toContain("?? Kimono");
    expect(text).toContain("?ódz");
    expect(text).toContain("Mei ?");
    expect(text).toContain("Black / S"); // 6003's item; 6002's full-width Ｍ becomes M
    expect(text).toContain("M · already shipped");
    expect(text).toContain("were replaced");
    // Only the order with such characters carries the notice.
    expect(text.match(/were replaced/g)).toHaveLength(1);
  });

  it("keeps WinAnsi text as it is and reduces the rest to base letters or ?", () => {
    expect(toWinAnsi("Café “Crème” – 50 € ™")).toEqual({ text: "Café “Crème” – 50 € ™", replaced: false });
    expect(toWinAnsi("Łódź ő ﬁne Ａ 東京\tx\r\ny")).toEqual({ text: "?ódz o fine A ?? x\ny", replaced: true });
  });

  it("takes the shop's name from the emails' sender", () => {
    expect(shopNameOf("Maison Lumière <shop@maison.test>")).toBe("Maison Lumière");
    expect(shopNameOf('"Nord, Studio" <a@b.c>')).toBe("Nord, Studio");
    expect(shopNameOf("no-reply@fashion.local")).toBe("Fashion Discovery");
  });

  it("lays out the given data only (no database): the HTML of a list is the same for the same data", async () => {
    const list = await loadPackingList(app.database.db, ["6003"], "Shop", new Date("2026-11-27T10:00:00Z"));
    expect(packingListHtml(list)).toBe(packingListHtml(structuredClone(list)));
    expect(packingListHtml(list)).toContain("<title>Packing list 2026-11-27 (1 order)</title>");
  });
});
