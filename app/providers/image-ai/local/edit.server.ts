/**
 * Local image edits without a generative model:
 * - inpaint: fills a masked region from its surroundings (push–pull: the known pixels are averaged
 *   down a pyramid until the hole closes, then the coarse levels are pulled back up into the hole;
 *   a few diffusion passes smooth the seam and a little grain matches the photo's noise);
 * - product shot: a cut-out on a studio background (colour or light neutral gradient) with a soft
 *   ground shadow;
 * - profile crop: a square around a face box.
 */
import { mulberry32 } from "~/lib/prng";
import sharp from "sharp";
import type { Box } from "../port";
import type { Cutout } from "./garment.server";
import { decodeRgb } from "./person.server";
import { blur, clamp, rawOut, toBuffer } from "./raster.server";

export const EDIT_MAX = 1536;

/** RGB image + hole mask (1 = fill) → RGB with the hole filled. */
export function pushPullFill(rgb: Uint8Array, hole: Uint8Array, width: number, height: number): Uint8Array {
  type Level = { w: number; h: number; c: Float32Array; k: Float32Array };
  const base: Level = { w: width, h: height, c: new Float32Array(width * height * 3), k: new Float32Array(width * height) };
  for (let i = 0; i < width * height; i++) {
    const known = hole[i] ? 0 : 1;
    base.k[i] = known;
    if (known) for (let ch = 0; ch < 3; ch++) base.c[i * 3 + ch] = rgb[i * 3 + ch];
  }
  const levels: Level[] = [base];
  // push: weighted 2×2 averages (colour premultiplied by confidence)
  while (levels.length < 16) {
    const p = levels[levels.length - 1];
    let holes = 0;
    for (let i = 0; i < p.k.length; i++) if (p.k[i] < 1e-4) holes++;
    if (holes === 0 || (p.w === 1 && p.h === 1)) break;
    const w = Math.max(1, Math.ceil(p.w / 2));
    const h = Math.max(1, Math.ceil(p.h / 2));
    const q: Level = { w, h, c: new Float32Array(w * h * 3), k: new Float32Array(w * h) };
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let ks = 0;
        let r = 0;
        let g = 0;
        let b = 0;
        for (let dy = 0; dy < 2; dy++) {
          for (let dx = 0; dx < 2; dx++) {
            const sx = Math.min(p.w - 1, 2 * x + dx);
            const sy = Math.min(p.h - 1, 2 * y + dy);
            const j = sy * p.w + sx;
            const kk = p.k[j];
            ks += kk;
            r += p.c[j * 3] * kk;
            g += p.c[j * 3 + 1] * kk;
            b += p.c[j * 3 + 2] * kk;
          }
        }
        const o = y * w + x;
        if (ks > 0) {
          q.c[o * 3] = r / ks;
          q.c[o * 3 + 1] = g / ks;
          q.c[o * 3 + 2] = b / ks;
        }
        q.k[o] = Math.min(1, ks);
      }
    }
    levels.push(q);
  }
  // pull: blend each level's unknown part with the bilinearly upsampled coarser level
  for (let l = levels.length - 2; l >= 0; l--) {
    const p = levels[l];
    const q = levels[l + 1];
    for (let y = 0; y < p.h; y++) {
      for (let x = 0; x < p.w; x++) {
        const i = y * p.w + x;
        const k = p.k[i];
        if (k >= 1) continue;
        const fx = clamp((x + 0.5) / 2 - 0.5, 0, q.w - 1);
        const fy = clamp((y + 0.5) / 2 - 0.5, 0, q.h - 1);
        const x0 = Math.floor(fx);
        const y0 = Math.floor(fy);
        const x1 = Math.min(q.w - 1, x0 + 1);
        const y1 = Math.min(q.h - 1, y0 + 1);
        const ax = fx - x0;
        const ay = fy - y0;
        for (let ch = 0; ch < 3; ch++) {
          const v =
            q.c[(y0 * q.w + x0) * 3 + ch] * (1 - ax) * (1 - ay) +
            q.c[(y0 * q.w + x1) * 3 + ch] * ax * (1 - ay) +
            q.c[(y1 * q.w + x0) * 3 + ch] * (1 - ax) * ay +
            q.c[(y1 * q.w + x1) * 3 + ch] * ax * ay;
          p.c[i * 3 + ch] = p.c[i * 3 + ch] * k + v * (1 - k);
        }
        p.k[i] = 1;
      }
    }
  }
  const out = new Uint8Array(rgb);
  for (let i = 0; i < width * height; i++) if (hole[i]) for (let ch = 0; ch < 3; ch++) out[i * 3 + ch] = clamp(Math.round(base.c[i * 3 + ch]), 0, 255);
  return out;
}

/**
 * Removes what `region` covers (1 byte per pixel at the image's working size, > 127 = remove, or
 * a box in the image's own pixels) and fills it from the surroundings. Answers a JPEG.
 */
export async function inpaint(
  imageBytes: Uint8Array,
  region: { mask: Uint8Array } | { box: Box },
): Promise<{ jpeg: Buffer; width: number; height: number; filled: number }> {
  const img = await decodeRgb(imageBytes, EDIT_MAX);
  const W = img.width;
  const H = img.height;
  const rgb = img.data;
  let hole = new Uint8Array(W * H);
  if ("mask" in region) {
    const m = await rawOut(sharp(region.mask).rotate().flatten({ background: "#000000" }).greyscale().resize(W, H, { fit: "fill" }), 1);
    for (let i = 0; i < hole.length; i++) hole[i] = m[i] > 127 ? 1 : 0;
  } else {
    const s = W / img.origWidth;
    const x0 = clamp(Math.floor(region.box.x * s), 0, W);
    const y0 = clamp(Math.floor(region.box.y * s), 0, H);
    const x1 = clamp(Math.ceil((region.box.x + region.box.width) * s), 0, W);
    const y1 = clamp(Math.ceil((region.box.y + region.box.height) * s), 0, H);
    for (let y = y0; y < y1; y++) hole.fill(1, y * W + x0, y * W + x1);
  }
  // grow the hole a little so the object's edge (anti-aliasing, shadow rim) goes too
  const grow = Math.max(2, Math.round(Math.min(W, H) / 200));
  const grown = await blur({ data: hole.map((v) => v * 255), width: W, height: H, channels: 1 }, grow);
  hole = grown.map((v) => (v > 20 ? 1 : 0));
  let filled = 0;
  for (let i = 0; i < hole.length; i++) filled += hole[i];
  if (filled === 0) throw new Error("The mask covers nothing");
  const fill = pushPullFill(rgb, hole, W, H);
  // soften inside the hole (the pyramid leaves faint blocks) and add grain like the photo's
  const soft = await blur({ data: fill, width: W, height: H, channels: 3 }, Math.max(1.5, grow * 1.5));
  const edge = await blur({ data: hole.map((v) => v * 255), width: W, height: H, channels: 1 }, 1.2);
  const rand = mulberry32(filled);
  const out = new Uint8Array(rgb);
  for (let i = 0; i < W * H; i++) {
    const a = Math.max(hole[i], edge[i] / 255);
    if (a <= 0) continue;
    const n = (rand() - 0.5) * 6;
    for (let ch = 0; ch < 3; ch++) out[i * 3 + ch] = clamp(Math.round(rgb[i * 3 + ch] * (1 - a) + (soft[i * 3 + ch] + n) * a), 0, 255);
  }
  const jpeg = await sharp(toBuffer(out), { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
  return { jpeg, width: W, height: H, filled };
}

export const IMAGE_SIZES: Record<string, [number, number]> = {
  square_hd: [1024, 1024],
  square: [512, 512],
  portrait_4_3: [768, 1024],
  portrait_16_9: [576, 1024],
  landscape_4_3: [1024, 768],
  landscape_16_9: [1024, 576],
};

function hexRgb(hex: string): [number, number, number] {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** The cut-out centred on a studio background with a soft ground shadow. */
export async function productShot(c: Cutout, opts: { imageSize: string; backgroundColor?: string }): Promise<{ jpeg: Buffer; width: number; height: number }> {
  if (!c.bbox || c.coverage < 0.005) throw new Error("No product found in the image");
  const [W, H] = IMAGE_SIZES[opts.imageSize] ?? IMAGE_SIZES.portrait_4_3;
  // background: a vertical gradient (light neutral, or around the given colour)
  const [r0, g0, b0] = opts.backgroundColor ? hexRgb(opts.backgroundColor) : [246, 244, 240];
  const [r1, g1, b1] = opts.backgroundColor ? [r0 * 0.9, g0 * 0.9, b0 * 0.9] : [226, 222, 215];
  const bg = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    const t = y / (H - 1);
    for (let x = 0; x < W; x++) {
      const cx = (x - W / 2) / W;
      const v = 1 - 0.06 * cx * cx; // a faint vignette
      const o = (y * W + x) * 3;
      bg[o] = clamp((r0 + (r1 - r0) * t) * v, 0, 255);
      bg[o + 1] = clamp((g0 + (g1 - g0) * t) * v, 0, 255);
      bg[o + 2] = clamp((b0 + (b1 - b0) * t) * v, 0, 255);
    }
  }
  const { x0, y0, x1, y1 } = c.bbox;
  const cw = x1 - x0 + 1;
  const ch = y1 - y0 + 1;
  const scale = Math.min((W * 0.78) / cw, (H * 0.78) / ch);
  const pw = Math.max(1, Math.round(cw * scale));
  const ph = Math.max(1, Math.round(ch * scale));
  const product = await sharp(toBuffer(c.data), { raw: { width: c.width, height: c.height, channels: 4 } })
    .extract({ left: x0, top: y0, width: cw, height: ch })
    .resize(pw, ph)
    .png()
    .toBuffer();
  const left = Math.round((W - pw) / 2);
  const top = Math.round(H * 0.88 - ph);
  // shadow: an ellipse at the product's foot plus the silhouette, both blurred and faint
  const sw = Math.round(pw * 0.9);
  const sh = Math.max(6, Math.round(ph * 0.06));
  const shadowSvg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">` +
      `<ellipse cx="${W / 2}" cy="${top + ph - sh * 0.2}" rx="${sw / 2}" ry="${sh}" fill="black" fill-opacity="0.28"/></svg>`,
  );
  const shadow = await sharp(shadowSvg).blur(Math.max(4, sh * 0.9)).png().toBuffer();
  const silhouette = await sharp(product)
    .ensureAlpha()
    .extractChannel(3)
    .toColourspace("b-w")
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sil = new Uint8Array(pw * ph * 4);
  for (let i = 0; i < pw * ph; i++) sil[i * 4 + 3] = Math.round(silhouette.data[i] * 0.18);
  const silPng = await sharp(Buffer.from(sil), { raw: { width: pw, height: ph, channels: 4 } })
    .blur(Math.max(3, pw / 60))
    .png()
    .toBuffer();
  const jpeg = await sharp(toBuffer(bg), { raw: { width: W, height: H, channels: 3 } })
    .composite([
      { input: shadow, left: 0, top: 0 },
      { input: silPng, left: clamp(left + Math.round(pw * 0.02), 0, W - 1), top: clamp(top + Math.round(ph * 0.015), 0, H - 1) },
      { input: product, left, top },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
  return { jpeg, width: W, height: H };
}

/** A size × size JPEG crop around a face box (head and shoulders), in the photo's pixels. */
export async function profileCrop(bytes: Uint8Array, face: Box, photo: { width: number; height: number }, size = 512): Promise<Buffer> {
  const side0 = Math.max(face.width, face.height) * 2.2;
  const side = Math.round(Math.min(photo.width, photo.height, Math.max(side0, 64)));
  const cx = face.x + face.width / 2;
  const cy = face.y + face.height * 0.62;
  const left = Math.round(clamp(cx - side / 2, 0, photo.width - side));
  const top = Math.round(clamp(cy - side / 2, 0, photo.height - side));
  return sharp(bytes, { failOn: "none" })
    .rotate()
    .extract({ left, top, width: side, height: side })
    .resize(size, size)
    .jpeg({ quality: 90 })
    .toBuffer();
}
