/**
 * The packing list of chosen orders (issue 16, the orders list's "Print packing list"): one page per
 * order with the shop and the stores the items come from, the order's name and date, the ship-to
 * address, the items to pack (title, variant, SKU, quantity, image in HTML) and the order's note.
 *
 * loadPackingList reads the orders; packingListHtml and packingListPdf only lay out what they are
 * given, so both are tested without a server. HTML: a print-ready page (A4, a page break after each
 * order), every value escaped. PDF: pdfkit with its built-in Helvetica, which covers WinAnsi
 * (Latin-1 and a few typographic signs) only: other characters become their base letter when they
 * have one (ő → o) or "?" (CJK, Cyrillic…), and the order's page says so — the HTML shows them.
 * Dates are UTC.
 */
import PDFDocument from "pdfkit";
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { notFoundError } from "~/lib/domain-errors";
import { escapeHtml } from "../email.server";
import { toOrderGid } from "../account-orders.server";

export type PackingListItem = {
  title: string;
  variantTitle: string | null;
  sku: string | null;
  quantity: number;
  imageUrl: string | null;
  /** The marketplace store selling it (null when its product is gone or has no store). */
  store: string | null;
  /** The item's status when it is no longer waiting to be packed (fulfilled, shipped…), else null. */
  sentStatus: string | null;
};

export type PackingListOrder = {
  id: string;
  name: string;
  createdAt: Date;
  customer: { name: string | null; email: string | null };
  /** Address lines, in the order a label shows them; empty when the order has no shipping address. */
  shipTo: string[];
  items: PackingListItem[];
  /** Cancelled items are not packed: how many were left out. */
  cancelledItems: number;
  note: string | null;
};

export type PackingList = { shopName: string; generatedAt: Date; orders: PackingListOrder[] };

/** The shop's name as the shopper's emails show it (EMAIL_FROM's display name). */
export function shopNameOf(emailFrom: string): string {
  const name = /^\s*"?([^"<]*?)"?\s*</.exec(emailFrom)?.[1]?.trim();
  return name || "Fashion Discovery";
}

export const packingListFilename = (at: Date) => `packing-list-${at.toISOString().slice(0, 10)}.pdf`;

const day = (d: Date) => new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }).format(d);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const SENT = new Set(["fulfilled", "shipped", "delivered", "returned"]);

function shipToLines(v: Prisma.JsonValue | null): string[] {
  if (!v || typeof v !== "object" || Array.isArray(v)) return [];
  const a = v as Record<string, unknown>;
  const name = [str(a.first_name), str(a.last_name)].filter(Boolean).join(" ") || str(a.name);
  const cityLine = [str(a.city), [str(a.province_code) ?? str(a.province), str(a.zip)].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [name, str(a.company), str(a.address1), str(a.address2), cityLine, str(a.country) ?? str(a.country_code), str(a.phone)].filter((x): x is string => !!x);
}

/**
 * The orders in the order asked for. Ids are the store's (gid) or order numbers' digits; unknown
 * ones are refused together, by name.
 */
export async function loadPackingList(db: Db, rawIds: string[], shopName: string, now = new Date()): Promise<PackingList> {
  const ids = [...new Set(rawIds.map((id) => id.trim()).filter(Boolean))];
  const gids = ids.map(toOrderGid);
  const rows = await db.order.findMany({
    where: { id: { in: gids } },
    include: {
      items: { orderBy: [{ created_at: "asc" }, { id: "asc" }] },
      user: { select: { email: true, first_name: true, last_name: true } },
    },
  });
  const byId = new Map(rows.map((o) => [o.id, o]));
  const missing = ids.filter((_, i) => !byId.has(gids[i]));
  if (missing.length) throw notFoundError(`${missing.length === 1 ? "Order" : "Orders"} not found: ${missing.join(", ")}`);
  const productIds = [...new Set(rows.flatMap((o) => o.items.map((i) => i.product_id)).filter((x): x is string => !!x))];
  const products = productIds.length ? await db.product.findMany({ where: { id: { in: productIds } }, select: { id: true, store: { select: { name: true } } } }) : [];
  const storeOf = new Map(products.map((p) => [p.id, p.store?.name ?? null]));
  const orders = [...new Set(gids)].map((gid) => {
    const o = byId.get(gid)!;
    const kept = o.items.filter((i) => i.status !== "cancelled");
    const fromUser = o.user ? [o.user.first_name, o.user.last_name].filter((x) => x && x.trim()).join(" ") : "";
    const shipTo = shipToLines(o.shipping_address);
    return {
      id: o.id,
      name: o.name,
      createdAt: o.created_at,
      customer: { name: fromUser || shipTo[0] || null, email: o.email ?? o.user?.email ?? null },
      shipTo,
      items: kept.map((i) => ({
        title: i.title,
        variantTitle: i.variant_title,
        sku: i.sku,
        quantity: i.quantity,
        imageUrl: i.image_url,
        store: (i.product_id && storeOf.get(i.product_id)) || null,
        sentStatus: SENT.has(i.status) ? i.status : null,
      })),
      cancelledItems: o.items.length - kept.length,
      note: str(o.note),
    };
  });
  return { shopName, generatedAt: now, orders };
}

const storesOf = (o: PackingListOrder) => [...new Set(o.items.map((i) => i.store).filter((s): s is string => !!s))];

// ---------------------------------------------------------------------------------------------
// HTML

/** Only web images (http(s) or this site's paths) go into the page: nothing else may load from an attribute. */
const safeImage = (url: string | null) => (url && /^(https?:\/\/|\/(?!\/))/i.test(url) ? url : null);

const HTML_STYLE = `
*{box-sizing:border-box}
body{margin:0;font:13px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;color:#1a1a1a;background:#f1f1f1}
.order{background:#fff;max-width:800px;margin:24px auto;padding:32px 40px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
header{display:flex;justify-content:space-between;align-items:flex-start;border-bottom:2px solid #1a1a1a;padding-bottom:12px;margin-bottom:16px}
.shop{font-size:20px;font-weight:700}
.stores,.muted{color:#616161;font-size:12px}
.title{text-align:right}
.title h1{margin:0;font-size:18px}
.meta{display:flex;gap:40px;margin-bottom:20px}
.meta h2,.note h2{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:#616161;margin:0 0 4px}
.meta p{margin:0}
table{width:100%;border-collapse:collapse}
th{text-align:left;font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:#616161;border-bottom:1px solid #8a8a8a;padding:6px 4px}
td{border-bottom:1px solid #e3e3e3;padding:8px 4px;vertical-align:top}
td.qty,th.qty{text-align:right;width:60px;font-weight:600}
td.sku{width:150px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
td.img{width:56px}
td.img img{width:48px;height:48px;object-fit:cover;border-radius:4px}
td.check{width:28px}
.box{display:inline-block;width:14px;height:14px;border:1.5px solid #1a1a1a;border-radius:2px}
.note{margin-top:20px;padding:12px;border:1px solid #e3e3e3;border-radius:6px;white-space:pre-wrap}
.empty{color:#616161;padding:12px 4px}
@page{size:A4;margin:14mm}
@media print{
  body{background:#fff}
  .order{box-shadow:none;margin:0;max-width:none;padding:0;break-after:page;page-break-after:always}
  .order:last-child{break-after:auto;page-break-after:auto}
  tr{break-inside:avoid;page-break-inside:avoid}
}`;

function orderHtml(shopName: string, o: PackingListOrder): string {
  const e = escapeHtml;
  const stores = storesOf(o);
  const rows = o.items
    .map((i) => {
      const img = safeImage(i.imageUrl);
      const sub = [i.variantTitle, i.store, i.sentStatus ? `already ${i.sentStatus}` : null].filter(Boolean).map((s) => e(s!));
      return `<tr><td class="check"><span class="box"></span></td><td class="img">${img ? `<img src="${e(img)}" alt="">` : ""}</td><td><strong>${e(i.title)}</strong>${
        sub.length ? `<div class="muted">${sub.join(" · ")}</div>` : ""
      }</td><td class="sku">${e(i.sku ?? "—")}</td><td class="qty">${i.quantity}</td></tr>`;
    })
    .join("");
  return `<section class="order" data-order="${e(o.name)}">
<header><div><div class="shop">${e(shopName)}</div>${stores.length ? `<div class="stores">${e(stores.join(", "))}</div>` : ""}</div>
<div class="title"><h1>Packing list · Order ${e(o.name)}</h1><div class="muted">Placed ${e(day(o.createdAt))}</div></div></header>
<div class="meta"><div><h2>Ship to</h2>${o.shipTo.length ? o.shipTo.map((l) => `<p>${e(l)}</p>`).join("") : `<p class="muted">No shipping address</p>`}</div>
<div><h2>Customer</h2><p>${e(o.customer.name ?? "—")}</p>${o.customer.email ? `<p>${e(o.customer.email)}</p>` : ""}</div></div>
<table><thead><tr><th></th><th></th><th>Item</th><th>SKU</th><th class="qty">Qty</th></tr></thead><tbody>${rows || `<tr><td colspan="5" class="empty">Nothing to pack: every item is cancelled.</td></tr>`}</tbody></table>
${o.cancelledItems ? `<p class="muted">${o.cancelledItems} cancelled ${o.cancelledItems === 1 ? "item is" : "items are"} not listed.</p>` : ""}
${o.note ? `<div class="note"><h2>Note</h2>${e(o.note)}</div>` : ""}
</section>`;
}

/** A print-ready page: one section per order, a page break after each when printed. */
export function packingListHtml(list: PackingList): string {
  const title = `Packing list ${list.generatedAt.toISOString().slice(0, 10)} (${list.orders.length} ${list.orders.length === 1 ? "order" : "orders"})`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${HTML_STYLE}</style></head><body>
${list.orders.map((o) => orderHtml(list.shopName, o)).join("\n")}
</body></html>`;
}

// ---------------------------------------------------------------------------------------------
// PDF

/** WinAnsi code points beyond Latin-1 (the 0x80–0x9F block of Windows-1252) that pdfkit's standard fonts map. */
const WIN_ANSI_EXTRA = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac,
  0x2122,
]);
const inWinAnsi = (cp: number) => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(cp);

/**
 * `text` in what the standard PDF fonts can draw: a character outside WinAnsi becomes its base
 * letter(s) when it has one (ő → o, ﬁ → fi, full-width Ａ → A), else "?"; control characters become
 * spaces (line breaks stay). `replaced` tells whether anything was changed.
 */
export function toWinAnsi(text: string): { text: string; replaced: boolean } {
  let out = "";
  let replaced = false;
  for (const ch of text.replace(/\r\n?/g, "\n")) {
    const cp = ch.codePointAt(0)!;
    if (ch === "\n" || inWinAnsi(cp)) out += ch;
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += " ";
    else {
      const base = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out += base && [...base].every((c) => inWinAnsi(c.codePointAt(0)!)) ? base : "?";
      replaced = true;
    }
  }
  return { text: out, replaced };
}

const PAGE = { size: "A4" as const, margin: 50 };
const GREY = "#616161";

/**
 * The PDF (A4, one page per order, more when its items run over). `compress: false` keeps the
 * text readable in the file (tests look for it); served files are compressed.
 */
export async function packingListPdf(list: PackingList, { compress = true }: { compress?: boolean } = {}): Promise<Buffer> {
  const doc = new PDFDocument({ size: PAGE.size, margin: PAGE.margin, compress, autoFirstPage: false, info: { Title: `Packing list ${list.generatedAt.toISOString().slice(0, 10)}`, Creator: list.shopName } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  for (const o of list.orders) drawOrder(doc, list.shopName, o);
  if (!list.orders.length) doc.addPage();
  doc.end();
  return done;
}

function drawOrder(doc: PDFKit.PDFDocument, shopName: string, o: PackingListOrder) {
  let replaced = false;
  const t = (s: string) => {
    const w = toWinAnsi(s);
    replaced ||= w.replaced;
    return w.text;
  };
  doc.addPage();
  const left = PAGE.margin;
  const width = doc.page.width - 2 * PAGE.margin;
  const right = doc.page.width - PAGE.margin;
  const bottom = doc.page.height - PAGE.margin;

  // Header: the shop and its stores on the left, the order on the right.
  const top = doc.y;
  doc.font("Helvetica-Bold").fontSize(18).fillColor("black").text(t(shopName), left, top, { width: width / 2 });
  const stores = storesOf(o);
  if (stores.length) doc.font("Helvetica").fontSize(9).fillColor(GREY).text(t(stores.join(", ")), { width: width / 2 });
  const leftEnd = doc.y;
  doc.font("Helvetica-Bold").fontSize(14).fillColor("black").text(t(`Packing list · Order ${o.name}`), left + width / 2, top, { width: width / 2, align: "right" });
  doc.font("Helvetica").fontSize(9).fillColor(GREY).text(`Placed ${day(o.createdAt)}`, { width: width / 2, align: "right" });
  let y = Math.max(leftEnd, doc.y) + 6;
  doc.moveTo(left, y).lineTo(right, y).lineWidth(1.5).strokeColor("black").stroke();
  y += 12;

  // Ship to and customer.
  const col = (x: number, label: string, lines: string[]) => {
    doc.font("Helvetica-Bold").fontSize(8).fillColor(GREY).text(label.toUpperCase(), x, y, { width: width / 2 - 10 });
    doc.font("Helvetica").fontSize(10).fillColor("black");
    for (const l of lines) doc.text(t(l), { width: width / 2 - 10 });
    return doc.y;
  };
  const y1 = col(left, "Ship to", o.shipTo.length ? o.shipTo : ["No shipping address"]);
  const y2 = col(left + width / 2, "Customer", [o.customer.name ?? "—", ...(o.customer.email ? [o.customer.email] : [])]);
  y = Math.max(y1, y2) + 16;

  // Items.
  const cols = { check: left, item: left + 22, sku: left + width - 150, qty: right - 40 };
  const tableHeader = () => {
    doc.font("Helvetica-Bold").fontSize(8).fillColor(GREY);
    doc.text("ITEM", cols.item, y);
    doc.text("SKU", cols.sku, y);
    doc.text("QTY", cols.qty, y, { width: 40, align: "right" });
    y = doc.y + 3;
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.75).strokeColor("#8a8a8a").stroke();
    y += 6;
  };
  tableHeader();
  const itemWidth = cols.sku - cols.item - 10;
  const skuWidth = cols.qty - cols.sku - 6;
  for (const i of o.items) {
    const title = t(i.title);
    const sub = t([i.variantTitle, i.store, i.sentStatus ? `already ${i.sentStatus}` : null].filter(Boolean).join(" · "));
    doc.font("Helvetica-Bold").fontSize(10);
    let h = doc.heightOfString(title, { width: itemWidth });
    doc.font("Helvetica").fontSize(9);
    if (sub) h += doc.heightOfString(sub, { width: itemWidth });
    const sku = t(i.sku ?? "—");
    doc.font("Courier").fontSize(9);
    h = Math.max(h, doc.heightOfString(sku, { width: skuWidth }));
    if (y + h + 8 > bottom) {
      doc.addPage();
      y = doc.y;
      doc.font("Helvetica").fontSize(9).fillColor(GREY).text(t(`Order ${o.name} (continued)`), left, y);
      y = doc.y + 8;
      tableHeader();
    }
    doc.rect(cols.check, y + 1, 10, 10).lineWidth(1).strokeColor("black").stroke();
    doc.font("Helvetica-Bold").fontSize(10).fillColor("black").text(title, cols.item, y, { width: itemWidth });
    if (sub) doc.font("Helvetica").fontSize(9).fillColor(GREY).text(sub, { width: itemWidth });
    doc.font("Courier").fontSize(9).fillColor("black").text(sku, cols.sku, y + 1, { width: skuWidth });
    doc.font("Helvetica-Bold").fontSize(10).text(String(i.quantity), cols.qty, y, { width: 40, align: "right" });
    y += Math.max(h, 14) + 6;
    doc.moveTo(left, y - 3).lineTo(right, y - 3).lineWidth(0.5).strokeColor("#e3e3e3").stroke();
  }
  if (!o.items.length) {
    doc.font("Helvetica").fontSize(10).fillColor(GREY).text("Nothing to pack: every item is cancelled.", left, y);
    y = doc.y + 6;
  }
  const after = (text: string, opts: { label?: string } = {}) => {
    doc.font("Helvetica").fontSize(9);
    const h = doc.heightOfString(text, { width }) + (opts.label ? 14 : 0);
    if (y + h > bottom) {
      doc.addPage();
      y = doc.y;
    }
    if (opts.label) {
      doc.font("Helvetica-Bold").fontSize(8).fillColor(GREY).text(opts.label, left, y, { width });
      y = doc.y + 2;
    }
    doc.font("Helvetica").fontSize(opts.label ? 10 : 9).fillColor(opts.label ? "black" : GREY).text(text, left, y, { width });
    y = doc.y + 10;
  };
  if (o.cancelledItems) after(`${o.cancelledItems} cancelled ${o.cancelledItems === 1 ? "item is" : "items are"} not listed.`);
  if (o.note) after(t(o.note), { label: "NOTE" });
  if (replaced) after("Some characters cannot be drawn with this PDF's standard font and were replaced (by their base letter or \"?\"): the HTML packing list shows them as written.");
}
