/**
 * Local virtual try-on (vton-flux on CPU): a geometric garment transfer, not a diffusion model.
 *
 * 1. The garment cut-out's own geometry: its shoulder line, torso edges and hem (tops, dresses)
 *    or its waistband (bottoms), read from the alpha channel.
 * 2. A projective warp (4 point pairs → homography) of the garment onto the person's shoulders
 *    and hips (body keypoints from movenet); dresses and bottoms keep their aspect ratio.
 * 3. Occlusion: the garment is clipped to the person's silhouette (selfie mask, softly dilated)
 *    above the hips; the head, the neck and a crew neckline stay visible, and forearms/hands
 *    (elbow→wrist capsules inside the person mask) stay in front of the garment.
 * 4. Shading: the person's low-frequency luminance, relative to its mean under the garment, is
 *    multiplied softly into the garment (folds, light falloff); with enable_add_details a little
 *    mid-frequency detail is added too.
 *
 * Works at most OUTPUT_MAX px on the long side of the person photo.
 */
import sharp from "sharp";
import { ImageAiProviderError } from "../port";
import type { Cutout } from "./garment.server";
import { keypoint, type KeypointName, type PersonDetails } from "./person.server";
import { apply, blur, clamp, homography, resizeRaster, toBuffer, warpRgba, type Pt } from "./raster.server";

export const OUTPUT_MAX = 1024;

export type GarmentCategory = "tops" | "bottoms" | "one-pieces";

export interface TryOnOptions {
  category: GarmentCategory;
  enableAddDetails: boolean;
  promptStrength: number;
}

export interface TryOnResult {
  jpeg: Buffer;
  width: number;
  height: number;
  /** Where the garment went (working pixels), for callers and tests. */
  garmentBox: { x: number; y: number; width: number; height: number };
  meta: Record<string, unknown>;
}

const add = (a: Pt, b: Pt): Pt => ({ x: a.x + b.x, y: a.y + b.y });
const sub = (a: Pt, b: Pt): Pt => ({ x: a.x - b.x, y: a.y - b.y });
const mul = (a: Pt, k: number): Pt => ({ x: a.x * k, y: a.y * k });
const len = (a: Pt): number => Math.hypot(a.x, a.y);
const mid = (a: Pt, b: Pt): Pt => mul(add(a, b), 0.5);

/** The contiguous alpha run around column cx in row y of an RGBA raster: [left, right] or null. */
function runAround(c: Cutout, y: number, cx: number): [number, number] | null {
  const row = Math.round(y) * c.width * 4;
  const on = (x: number) => c.data[row + x * 4 + 3] > 128;
  let x = Math.round(cx);
  if (!on(x)) {
    // the centre may be a gap (between trouser legs, a neck hole): look for the nearest on-pixel
    let found = -1;
    for (let d = 1; d < c.width / 4 && found < 0; d++) {
      if (x - d >= 0 && on(x - d)) found = x - d;
      else if (x + d < c.width && on(x + d)) found = x + d;
    }
    if (found < 0) return null;
    x = found;
  }
  let l = x;
  let r = x;
  while (l > 0 && on(l - 1)) l--;
  while (r < c.width - 1 && on(r + 1)) r++;
  return [l, r];
}

/** The full alpha extent of a row (left-most to right-most on-pixel). */
function rowExtent(c: Cutout, y: number): [number, number] | null {
  const row = Math.round(y) * c.width * 4;
  let l = -1;
  let r = -1;
  for (let x = 0; x < c.width; x++) {
    if (c.data[row + x * 4 + 3] > 128) {
      if (l < 0) l = x;
      r = x;
    }
  }
  return l < 0 ? null : [l, r];
}

interface GarmentFrame {
  /** Source quad: top-left, top-right, bottom-right, bottom-left (garment pixels). */
  quad: [Pt, Pt, Pt, Pt];
  topWidth: number;
  height: number;
}

/** Tops and dresses: shoulder line (first row as wide as the torso) down to the hem, torso edges. */
function topFrame(c: Cutout): GarmentFrame {
  const b = c.bbox!;
  const gh = b.y1 - b.y0;
  const cx = (b.x0 + b.x1) / 2;
  const torso = runAround(c, b.y0 + 0.72 * gh, cx) ?? [b.x0, b.x1];
  let torsoW = torso[1] - torso[0];
  // a dress flares below the waist: take the narrowest torso run between 35% and 60% of the height
  for (let f = 0.35; f <= 0.6; f += 0.05) {
    const r = runAround(c, b.y0 + f * gh, cx);
    if (r && r[1] - r[0] < torsoW && r[1] - r[0] > 0.3 * (b.x1 - b.x0)) torsoW = r[1] - r[0];
  }
  let ys = b.y0 + 0.08 * gh;
  for (let y = b.y0; y < b.y0 + 0.3 * gh; y++) {
    const r = rowExtent(c, y);
    if (r && r[1] - r[0] >= 0.92 * torsoW) {
      ys = y;
      break;
    }
  }
  const tcx = (torso[0] + torso[1]) / 2;
  const l = tcx - torsoW / 2;
  const r = tcx + torsoW / 2;
  return {
    quad: [
      { x: l, y: ys },
      { x: r, y: ys },
      { x: r, y: b.y1 },
      { x: l, y: b.y1 },
    ],
    topWidth: torsoW,
    height: b.y1 - ys,
  };
}

/** Bottoms: the waistband row down to the hem. */
function bottomFrame(c: Cutout): GarmentFrame {
  const b = c.bbox!;
  const gh = b.y1 - b.y0;
  const yw = b.y0 + 0.04 * gh;
  const w = rowExtent(c, yw) ?? [b.x0, b.x1];
  return {
    quad: [
      { x: w[0], y: yw },
      { x: w[1], y: yw },
      { x: w[1], y: b.y1 },
      { x: w[0], y: b.y1 },
    ],
    topWidth: w[1] - w[0],
    height: b.y1 - yw,
  };
}

interface Body {
  /** Unit vector along the torso, shoulders → hips. */
  down: Pt;
  /** Shoulders ordered by image x (a = left in the picture). */
  sa: Pt;
  sb: Pt;
  s: number;
  u: Pt;
  n: Pt;
  hipMid: Pt;
  hipU: Pt;
  hipDist: number;
  hips: boolean;
  torsoLen: number;
}

function bodyFrame(d: PersonDetails, scale: number, category: GarmentCategory): Body {
  const a = d.analysis;
  const p = (name: KeypointName) => {
    const k = keypoint(a, name);
    return k ? { x: k.x * scale, y: k.y * scale } : null;
  };
  const ls = p("left_shoulder");
  const rs = p("right_shoulder");
  const lh = p("left_hip");
  const rh = p("right_hip");
  if (!ls || !rs) throw new ImageAiProviderError("The person photo must show both shoulders for a try-on", false);
  if (category === "bottoms" && (!lh || !rh)) throw new ImageAiProviderError("The person photo must show the hips to try on bottoms", false);
  const [sa, sb] = ls.x <= rs.x ? [ls, rs] : [rs, ls];
  const s = Math.max(1, len(sub(sb, sa)));
  const u = mul(sub(sb, sa), 1 / s);
  const n = { x: -u.y, y: u.x };
  const sMid = mid(sa, sb);
  // people stand or sit upright: without hips, the torso runs between the shoulder normal and the vertical
  const guess = mul(add(n, { x: 0, y: 1 }), 0.5);
  let down = mul(guess, 1 / (len(guess) || 1));
  let hipMid = add(sMid, mul(down, 1.35 * s));
  let hipU = u;
  let hipDist = 0.7 * s;
  let hips = !!(lh && rh);
  if (lh && rh) {
    const [ha, hb] = lh.x <= rh.x ? [lh, rh] : [rh, lh];
    const m = mid(ha, hb);
    // a hip line implausibly close to the shoulders (bent over, side-on) is not trusted
    if (len(sub(m, sMid)) >= 0.8 * s) {
      hipMid = m;
      hipDist = Math.max(1, len(sub(hb, ha)));
      hipU = mul(sub(hb, ha), 1 / hipDist);
      down = mul(sub(hipMid, sMid), 1 / len(sub(hipMid, sMid)));
    } else hips = false;
  }
  return { down, sa, sb, s, u, n, hipMid, hipU, hipDist, hips, torsoLen: len(sub(hipMid, sMid)) };
}

/** Destination quad on the person for the garment frame. */
function targetQuad(b: Body, g: GarmentFrame, category: GarmentCategory): [Pt, Pt, Pt, Pt] {
  const { s, u, n } = b;
  if (category === "bottoms") {
    const waistW = clamp(b.hipDist * 1.75, 0.75 * s, 1.3 * s);
    const waist = sub(b.hipMid, mul(n, 0.16 * b.torsoLen));
    const k = waistW / g.topWidth;
    const tl = sub(waist, mul(b.hipU, waistW / 2));
    const tr = add(waist, mul(b.hipU, waistW / 2));
    const down = b.down;
    return [tl, tr, add(tr, mul(down, g.height * k)), add(tl, mul(down, g.height * k))];
  }
  const ext = 0.13 * s;
  const lift = mul(n, -0.07 * s);
  const tl = add(sub(b.sa, mul(u, ext)), lift);
  const tr = add(add(b.sb, mul(u, ext)), lift);
  if (category === "one-pieces") {
    const k = len(sub(tr, tl)) / g.topWidth;
    return [tl, tr, add(tr, mul(b.down, g.height * k)), add(tl, mul(b.down, g.height * k))];
  }
  const hem = add(b.hipMid, mul(n, 0.12 * b.torsoLen));
  const bottomW = clamp(b.hipDist * 1.65, 0.95 * s, 1.35 * s);
  return [tl, tr, add(hem, mul(b.hipU, bottomW / 2)), sub(hem, mul(b.hipU, bottomW / 2))];
}

/** Distance from p to the segment a–b. */
function segDist(px: number, py: number, a: Pt, b: Pt): number {
  const vx = b.x - a.x;
  const vy = b.y - a.y;
  const l2 = vx * vx + vy * vy || 1;
  const t = clamp(((px - a.x) * vx + (py - a.y) * vy) / l2, 0, 1);
  return Math.hypot(px - (a.x + t * vx), py - (a.y + t * vy));
}

export async function renderTryOn(personBytes: Uint8Array, person: PersonDetails, garment: Cutout, opts: TryOnOptions): Promise<TryOnResult> {
  if (!garment.bbox || garment.coverage < 0.01) throw new ImageAiProviderError("No garment found in the product image", false);
  const a = person.analysis;
  if (a.people === 0) throw new ImageAiProviderError("No person found in the person photo", false);

  const { data: rgbBuf, info } = await sharp(personBytes, { failOn: "none" })
    .rotate()
    .resize({ width: OUTPUT_MAX, height: OUTPUT_MAX, fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  const W = info.width;
  const H = info.height;
  const rgb = new Uint8Array(rgbBuf.buffer, rgbBuf.byteOffset, rgbBuf.length);
  const scale = W / a.width;

  // 1–2: geometry and warp
  const body = bodyFrame(person, scale, opts.category);
  const frame = opts.category === "bottoms" ? bottomFrame(garment) : topFrame(garment);
  const dst = targetQuad(body, frame, opts.category);
  const m = homography(frame.quad, dst);
  const warped = warpRgba({ data: garment.data, width: garment.width, height: garment.height, channels: 4 }, m, W, H);

  // 3: occlusion weights
  const mask = await resizeRaster({ data: person.mask.data, width: person.mask.width, height: person.mask.height, channels: 1 }, W, H);
  const soft = await blur({ data: mask, width: W, height: H, channels: 1 }, Math.max(1.5, body.s * 0.05));
  const { s, n } = body;
  const sMid = mid(body.sa, body.sb);
  const clipAboveHips = opts.category !== "bottoms";
  const hipLineY = (x: number) => body.hipMid.y + ((x - body.hipMid.x) * body.hipU.y) / (body.hipU.x || 1e-6);

  const face = a.faceBox ? { x: a.faceBox.x * scale, y: a.faceBox.y * scale, w: a.faceBox.width * scale, h: a.faceBox.height * scale } : null;
  const headC = face ? { x: face.x + face.w / 2, y: face.y + face.h * 0.45 } : sub(sMid, mul(n, 0.75 * s));
  const headR = face ? { x: face.w * 0.62, y: face.h * 0.72 } : { x: 0.32 * s, y: 0.42 * s };
  const chinY = face ? face.y + face.h : sMid.y - 0.3 * s;
  const neckC = sub(sMid, mul(n, 0.1 * s));
  const neckR = { x: 0.2 * s, y: 0.17 * s };
  const arms: { e: Pt; w: Pt; r: number }[] = [];
  for (const side of ["left", "right"] as const) {
    const e = keypoint(a, `${side}_elbow`);
    const w = keypoint(a, `${side}_wrist`);
    if (e && w) {
      const E = { x: e.x * scale, y: e.y * scale };
      const Wr = { x: w.x * scale, y: w.y * scale };
      arms.push({ e: E, w: add(Wr, mul(sub(Wr, E), 0.3)), r: 0.11 * s });
    }
  }

  const alpha = new Uint8Array(W * H);
  let minX = W;
  let minY = H;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      let al = warped[i * 4 + 3] / 255;
      if (al <= 0) continue;
      const pm = soft[i] / 255;
      // clip to the silhouette above the hips (dresses and bottoms may flare below)
      if (clipAboveHips && y < hipLineY(x)) al *= clamp((pm - 0.12) / 0.3, 0, 1);
      // head and hair above the chin
      const hx = (x - headC.x) / headR.x;
      const hy = (y - headC.y) / headR.y;
      const hd = hx * hx + hy * hy;
      if (hd < 1.3) al *= clamp((hd - 1) / 0.3, 0, 1);
      if (y < chinY && Math.abs(x - headC.x) < headR.x * 1.05 && mask[i] > 100) al = 0;
      // neck: nothing above the shoulder line within the neck column, and a crew neckline
      if (opts.category !== "bottoms") {
        const nx = (x - neckC.x) / neckR.x;
        const ny = (y - neckC.y) / neckR.y;
        const nd = nx * nx + ny * ny;
        if (nd < 1.2) al *= clamp((nd - 1) / 0.2, 0, 1);
      }
      // forearms and hands in front
      for (const arm of arms) {
        const dd = segDist(x, y, arm.e, arm.w);
        if (dd < arm.r * 1.3 && mask[i] > 110) al *= clamp((dd - arm.r) / (0.3 * arm.r), 0, 1);
      }
      const v = Math.round(al * 255);
      alpha[i] = v;
      if (v > 24) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  if (maxX < 0) throw new ImageAiProviderError("The garment could not be placed on this photo", false);
  const feathered = await blur({ data: alpha, width: W, height: H, channels: 1 }, Math.max(0.8, W / 900));

  // 4: shading from the person's luminance
  const lum = new Uint8Array(W * H);
  for (let i = 0, j = 0; i < lum.length; i++, j += 3) lum[i] = (rgb[j] * 299 + rgb[j + 1] * 587 + rgb[j + 2] * 114) / 1000;
  const low = await blur({ data: lum, width: W, height: H, channels: 1 }, Math.max(3, s * 0.12));
  const midF = opts.enableAddDetails ? await blur({ data: lum, width: W, height: H, channels: 1 }, Math.max(1, s * 0.015)) : null;
  let sum = 0;
  let wsum = 0;
  for (let i = 0; i < feathered.length; i++) {
    const w = feathered[i];
    if (w > 128) {
      sum += low[i] * w;
      wsum += w;
    }
  }
  const mean = wsum > 0 ? Math.max(20, sum / wsum) : 128;
  const k = clamp(0.15 + 0.2 * opts.promptStrength, 0.1, 0.4);
  const out = new Uint8Array(rgb);
  for (let i = 0; i < feathered.length; i++) {
    const al = feathered[i] / 255;
    if (al <= 0) continue;
    let f = 1 - k + k * clamp(low[i] / mean, 0.7, 1.25);
    if (midF) f += clamp((midF[i] - low[i]) / 255, -0.08, 0.08) * 0.5 * opts.promptStrength;
    const j = i * 3;
    const o = i * 4;
    for (let c = 0; c < 3; c++) {
      const g = clamp(warped[o + c] * f, 0, 255);
      out[j + c] = Math.round(rgb[j + c] * (1 - al) + g * al);
    }
  }
  const jpeg = await sharp(toBuffer(out), { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 88, mozjpeg: false })
    .toBuffer();
  const corners = frame.quad.map((p) => apply(m, p));
  return {
    jpeg,
    width: W,
    height: H,
    garmentBox: { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 },
    meta: {
      method: "local-warp",
      category: opts.category,
      hips: body.hips,
      shoulderWidth: Math.round(s),
      quad: corners.map((p) => [Math.round(p.x), Math.round(p.y)]),
    },
  };
}
