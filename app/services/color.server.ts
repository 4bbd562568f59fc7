/**
 * Colour science for internal media: sRGB → CIELAB (D65), CIEDE2000 distances and the dominant
 * colour of an image. The conversions and the distance come from culori (a maintained,
 * dependency-free colour library whose CIEDE2000 follows Sharma et al. 2005); the dominant colour
 * is ours: a histogram over Lab cells, refined by averaging the pixels near the winning cell.
 */
import { converter, differenceCiede2000, formatHex } from "culori";

export interface Lab {
  l: number;
  a: number;
  b: number;
}

const toLab65 = converter("lab65");
const toRgb = converter("rgb");
const ciede2000 = differenceCiede2000();

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** sRGB channels 0–255 → CIELAB under D65 (L 0–100). */
export function rgbToLab(r: number, g: number, b: number): Lab {
  const lab = toLab65({ mode: "rgb", r: r / 255, g: g / 255, b: b / 255 });
  return { l: lab.l, a: lab.a, b: lab.b };
}

/** `#rrggbb` (or `#rgb`) → Lab; null for anything that is not a hex colour. */
export function hexToLab(hex: string): Lab | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  return rgbToLab(parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16));
}

/** Lab → the nearest displayable `#rrggbb` (out-of-gamut channels are clamped). */
export function labToHex(lab: Lab): string {
  const rgb = toRgb({ mode: "lab65", l: lab.l, a: lab.a, b: lab.b });
  const clamp = (v: number) => Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0));
  return formatHex({ mode: "rgb", r: clamp(rgb.r), g: clamp(rgb.g), b: clamp(rgb.b) });
}

/** CIEDE2000 colour difference (kL = kC = kH = 1). About 1 is a just-noticeable difference. */
export function deltaE2000(x: Lab, y: Lab): number {
  return ciede2000({ mode: "lab65", l: x.l, a: x.a, b: x.b }, { mode: "lab65", l: y.l, a: y.a, b: y.b });
}

/**
 * A lightness window that contains every colour within `threshold` (CIEDE2000) of a reference:
 * ΔE00 ≥ |ΔL| / S_L and S_L ≤ 1.75 for L in [0, 100], so |ΔL| ≤ 1.75 · threshold. Used to narrow
 * the candidates in SQL before the exact distance is computed.
 */
export const lightnessWindow = (threshold: number) => threshold * 1.75 + 1e-6;

/** Rounds a Lab value for storage and display. */
export const roundLab = (lab: Lab): Lab => ({ l: round(lab.l), a: round(lab.a), b: round(lab.b) });

/**
 * The dominant colour of raw pixels (`channels` 3 = RGB, 4 = RGBA; transparent pixels are
 * skipped). Each pixel falls into a Lab cell (10 L × 12 a × 12 b units); the fullest cell wins
 * (ties: the lighter-first cell key, so the result is deterministic), and the answer is the mean of
 * every pixel within ΔE00 8 of that cell's mean, so a colour split across cell borders is not missed.
 */
export function dominantLab(data: Uint8Array, channels: 3 | 4): Lab {
  const labs: Lab[] = [];
  for (let i = 0; i + channels - 1 < data.length; i += channels) {
    if (channels === 4 && data[i + 3] < 128) continue;
    labs.push(rgbToLab(data[i], data[i + 1], data[i + 2]));
  }
  if (labs.length === 0) return { l: 100, a: 0, b: 0 };
  const cells = new Map<string, { n: number; l: number; a: number; b: number }>();
  for (const p of labs) {
    const key = `${Math.floor(p.l / 10)}|${Math.floor((p.a + 128) / 12)}|${Math.floor((p.b + 128) / 12)}`;
    const c = cells.get(key) ?? { n: 0, l: 0, a: 0, b: 0 };
    c.n++;
    c.l += p.l;
    c.a += p.a;
    c.b += p.b;
    cells.set(key, c);
  }
  let bestKey = "";
  let best = { n: 0, l: 0, a: 0, b: 0 };
  for (const [key, c] of cells) {
    if (c.n > best.n || (c.n === best.n && key < bestKey)) {
      best = c;
      bestKey = key;
    }
  }
  const centre = { l: best.l / best.n, a: best.a / best.n, b: best.b / best.n };
  let n = 0;
  const sum = { l: 0, a: 0, b: 0 };
  for (const p of labs) {
    if (deltaE2000(p, centre) > 8) continue;
    n++;
    sum.l += p.l;
    sum.a += p.a;
    sum.b += p.b;
  }
  return n ? roundLab({ l: sum.l / n, a: sum.a / n, b: sum.b / n }) : roundLab(centre);
}
