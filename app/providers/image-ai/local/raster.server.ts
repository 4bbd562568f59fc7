/**
 * Small raster helpers on raw pixel buffers (row-major, interleaved channels) for the local
 * provider: blurs through sharp, a projective warp with bilinear sampling, homographies.
 */
import sharp, { type Sharp } from "sharp";

export type Pt = { x: number; y: number };

export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

export function toBuffer(a: Uint8Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.length);
}

/** Gaussian blur of a raster (sigma in px; ≤ 0.3 answers a copy). */
export async function blur(r: Raster, sigma: number): Promise<Uint8Array> {
  if (sigma <= 0.3) return new Uint8Array(r.data);
  const out = sharp(toBuffer(r.data), { raw: { width: r.width, height: r.height, channels: r.channels } })
    .blur(Math.min(1000, sigma));
  return rawOut(out, r.channels);
}

/** Raw pixels out of a sharp pipeline with exactly `channels` channels (sharp widens 1 to 3). */
export async function rawOut(img: Sharp, channels: 1 | 3 | 4): Promise<Uint8Array> {
  const out = await (channels === 1 ? img.extractChannel(0) : img).raw().toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/** Resizes a raster to exactly width × height. */
export async function resizeRaster(r: Raster, width: number, height: number): Promise<Uint8Array> {
  if (r.width === width && r.height === height) return r.data;
  return rawOut(sharp(toBuffer(r.data), { raw: { width: r.width, height: r.height, channels: r.channels } }).resize(width, height, { fit: "fill", kernel: "linear" }), r.channels);
}

/** Solves the 3×3 homography (h33 = 1) mapping src[i] → dst[i] (4 points). */
export function homography(src: Pt[], dst: Pt[]): number[] {
  const A: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = src[i];
    const { x: u, y: v } = dst[i];
    A.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    A.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solve(A, b);
  return [...h, 1];
}

/** Gaussian elimination with partial pivoting. */
export function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    if (Math.abs(M[p][c]) < 1e-12) throw new Error("Degenerate point configuration");
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      if (f === 0) continue;
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[n] / row[i]);
}

export function invert3(m: number[]): number[] {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-12) throw new Error("Singular transform");
  const inv = [A, -(b * i - c * h), b * f - c * e, B, a * i - c * g, -(a * f - c * d), C, -(a * h - b * g), a * e - b * d];
  return inv.map((v) => v / det);
}

export function apply(m: number[], p: Pt): Pt {
  const w = m[6] * p.x + m[7] * p.y + m[8];
  return { x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w };
}

/**
 * Warps an RGBA raster with the homography `m` (source → destination) onto a width × height
 * RGBA canvas (transparent outside), sampling bilinearly. Only the destination box covered by
 * the warped source corners is visited.
 */
export function warpRgba(src: Raster, m: number[], width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  const inv = invert3(m);
  const corners = [
    { x: 0, y: 0 },
    { x: src.width, y: 0 },
    { x: src.width, y: src.height },
    { x: 0, y: src.height },
  ].map((p) => apply(m, p));
  const minX = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.x))));
  const maxX = Math.min(width - 1, Math.ceil(Math.max(...corners.map((p) => p.x))));
  const minY = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.y))));
  const maxY = Math.min(height - 1, Math.ceil(Math.max(...corners.map((p) => p.y))));
  const sw = src.width;
  const sh = src.height;
  const s = src.data;
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const w = inv[6] * x + inv[7] * y + inv[8];
      if (w <= 1e-6) continue;
      const fx = (inv[0] * x + inv[1] * y + inv[2]) / w;
      const fy = (inv[3] * x + inv[4] * y + inv[5]) / w;
      if (fx < 0 || fy < 0 || fx > sw - 1 || fy > sh - 1) continue;
      const x0 = fx | 0;
      const y0 = fy | 0;
      const x1 = Math.min(sw - 1, x0 + 1);
      const y1 = Math.min(sh - 1, y0 + 1);
      const ax = fx - x0;
      const ay = fy - y0;
      const i00 = (y0 * sw + x0) * 4;
      const i10 = (y0 * sw + x1) * 4;
      const i01 = (y1 * sw + x0) * 4;
      const i11 = (y1 * sw + x1) * 4;
      const w00 = (1 - ax) * (1 - ay) * s[i00 + 3];
      const w10 = ax * (1 - ay) * s[i10 + 3];
      const w01 = (1 - ax) * ay * s[i01 + 3];
      const w11 = ax * ay * s[i11 + 3];
      const alpha = w00 + w10 + w01 + w11;
      if (alpha < 0.5) continue;
      const o = (y * width + x) * 4;
      // alpha-weighted colour (no dark fringes from transparent neighbours)
      out[o] = (s[i00] * w00 + s[i10] * w10 + s[i01] * w01 + s[i11] * w11) / alpha;
      out[o + 1] = (s[i00 + 1] * w00 + s[i10 + 1] * w10 + s[i01 + 1] * w01 + s[i11 + 1] * w11) / alpha;
      out[o + 2] = (s[i00 + 2] * w00 + s[i10 + 2] * w10 + s[i01 + 2] * w01 + s[i11 + 2] * w11) / alpha;
      out[o + 3] = alpha;
    }
  }
  return out;
}

export const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);
