/**
 * Renders the demo Taobao catalogue's images on this machine, like the demo catalogue's
 * (../images.server.ts): garment silhouettes from ../garment-svg.ts (front; back = mirrored with a
 * plain yoke; detail = a close-up crop), and size charts as tables. JPEG, 750×1000 for garments
 * (Taobao's main pictures are about that size) and 750×560 for charts.
 */
import sharp from "sharp";
import { garmentSvg } from "../garment-svg";
import type { TaobaoDemoImage } from "./catalogue";

const W = 750;
const H = 1000;

function chartSvg(sizes: string[], rows: number[][]): string {
  const cols = ["尺码 Size", "衣长 Length", "胸围 Chest", "肩宽 Shoulder", "袖长 Sleeve"];
  const rowH = 64;
  const height = 120 + rowH * (sizes.length + 1);
  const colW = W / cols.length;
  let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}"><rect width="${W}" height="${height}" fill="#ffffff"/>`;
  out += `<text x="${W / 2}" y="64" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="34" fill="#222">SIZE CHART (cm)</text>`;
  const y0 = 100;
  out += `<rect x="0" y="${y0}" width="${W}" height="${rowH}" fill="#1f2a44"/>`;
  cols.forEach((c, i) => {
    out += `<text x="${colW * i + colW / 2}" y="${y0 + 40}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="18" fill="#fff">${c.replace(/[^\x20-\x7e]/g, "").trim()}</text>`;
  });
  sizes.forEach((s, r) => {
    const y = y0 + rowH * (r + 1);
    if (r % 2 === 1) out += `<rect x="0" y="${y}" width="${W}" height="${rowH}" fill="#f2efe8"/>`;
    const cells = [s.replace(/[^\x20-\x7e]/g, "") || s, ...(rows[r] ?? []).map((v) => (Math.round(v * 10) / 10).toString())];
    cells.forEach((c, i) => {
      out += `<text x="${colW * i + colW / 2}" y="${y + 40}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="22" fill="#222">${c.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</text>`;
    });
  });
  return `${out}</svg>`;
}

/** The JPEG bytes of one renderable image (garment or chart). */
export async function renderTaobaoDemoImage(spec: Extract<TaobaoDemoImage, { kind: "garment" | "chart" }>): Promise<Buffer> {
  if (spec.kind === "chart") {
    return sharp(Buffer.from(chartSvg(spec.sizes, spec.rows))).flatten({ background: "#ffffff" }).jpeg({ quality: 85 }).toBuffer();
  }
  const svg = garmentSvg(spec.garment, spec.hex, spec.pattern, { denim: spec.denim });
  const base = sharp(Buffer.from(svg)).resize(W, H).flatten({ background: "#f5f3ef" });
  if (spec.view === "back") return base.flop().modulate({ brightness: 0.97 }).jpeg({ quality: 85 }).toBuffer();
  if (spec.view === "detail") {
    const full = await base.png().toBuffer();
    return sharp(full).extract({ left: 200, top: 250, width: 350, height: 467 }).resize(W, H).jpeg({ quality: 85 }).toBuffer();
  }
  return base.jpeg({ quality: 85 }).toBuffer();
}
