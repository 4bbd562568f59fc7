/**
 * Image features for visual search, computed without a model: the foreground (the garment) found
 * against the background colour read from the image's border, its silhouette on a small grid,
 * and a CIELAB colour histogram of its pixels. The CNN part of the vector (MobileNetV2) gets the
 * foreground crop in grey (see ./local.server.ts); colour is left to the histogram.
 *
 * ## Vector layout (model id IMAGE_EMBEDDING_MODEL, 1524 dimensions)
 * | offset | length | block | content |
 * |---|---|---|---|
 * | 0 | 1280 | cnn | MobileNetV2 (nsfwjs 4.3.0 weights) layer `flatten_1` of the grey foreground crop (224×224), square-rooted |
 * | 1280 | 144 | shape | 12×12 silhouette occupancy of the foreground, centred, aspect kept |
 * | 1424 | 100 | colour | Lab histogram of foreground pixels, L 4 × a 5 × b 5 bins, square-rooted (Hellinger) |
 * Each block is L2-normalised and multiplied by √weight (weights sum to 1), so the whole vector
 * has unit length and the cosine of two vectors is Σ weight × (cosine of the blocks):
 * 0.27 × cnn + 0.71 × shape + 0.02 × colour.
 *
 * Why these weights (measured on 70 demo renders, 14 garment types × 5 colours and 4 patterns):
 * the colour block's cosine swings from 0 to 1 between colours while the type signal of the other
 * blocks spans a few hundredths, so colour gets a small weight and acts as a tie-breaker between
 * garments of the same shape; the silhouette tells garment types apart better than MobileNet's
 * generic features, which also react to prints. Nearest neighbour of the same type: 29 of 70
 * (cnn alone 27, chance 4); same type closer on average than other types: 68 of 70.
 */
import sharp from "sharp";

export const IMAGE_EMBEDDING_MODEL = "mnv2-flatten1-grey+shape144+lab100-v1";

export const BLOCKS = {
  cnn: { offset: 0, length: 1280, weight: 0.27 },
  shape: { offset: 1280, length: 144, weight: 0.71 },
  colour: { offset: 1424, length: 100, weight: 0.02 },
} as const;
export type BlockName = keyof typeof BLOCKS;
export const IMAGE_EMBEDDING_DIMENSIONS = BLOCKS.colour.offset + BLOCKS.colour.length;

export const CNN_INPUT_SIZE = 224;
export const SHAPE_GRID = 12;
const WORK_SIZE = 512;
const MASK_SIZE = 128;
/** ΔE (CIE76) from the background colour above which a pixel is foreground. */
const FOREGROUND_DELTA_E = 12;

// ---------------------------------------------------------------------------------------------
// Colour

const LINEAR = new Float64Array(256).map((_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const labF = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);

/** sRGB 0–255 → CIELAB (D65); agrees with culori's lab65 (app/services/color.server.ts) within 0.05. */
export function srgbToLab(r: number, g: number, b: number): [number, number, number] {
  const R = LINEAR[r];
  const G = LINEAR[g];
  const B = LINEAR[b];
  const x = (0.4123907992659595 * R + 0.357584339383878 * G + 0.1804807884018343 * B) / 0.95047;
  const y = 0.21263900587151036 * R + 0.715168678767756 * G + 0.07219231536073371 * B;
  const z = (0.01933081871559185 * R + 0.11919477979462598 * G + 0.9505321522496606 * B) / 1.08883;
  const fx = labF(x);
  const fy = labF(y);
  const fz = labF(z);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const L_EDGES = [25, 50, 75]; // 4 bins
const AB_EDGES = [-30, -10, 10, 30]; // 5 bins; the middle one holds the near-neutrals
const binOf = (v: number, edges: readonly number[]) => {
  let i = 0;
  while (i < edges.length && v >= edges[i]) i++;
  return i;
};
export const COLOUR_BINS = (L_EDGES.length + 1) * (AB_EDGES.length + 1) ** 2;

/** The bin of a Lab colour in the 4 × 5 × 5 histogram. */
export function colourBin(l: number, a: number, b: number): number {
  const nab = AB_EDGES.length + 1;
  return binOf(l, L_EDGES) * nab * nab + binOf(a, AB_EDGES) * nab + binOf(b, AB_EDGES);
}

/** Square-rooted, normalised histogram of Lab pixels (`labs` as l,a,b triples) where `mask` is set. */
export function colourHistogram(labs: Float32Array, mask: Uint8Array): Float32Array {
  const h = new Float32Array(COLOUR_BINS);
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    h[colourBin(labs[i * 3], labs[i * 3 + 1], labs[i * 3 + 2])]++;
    n++;
  }
  if (n) for (let i = 0; i < h.length; i++) h[i] = Math.sqrt(h[i] / n);
  return h;
}

// ---------------------------------------------------------------------------------------------
// Foreground and silhouette

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Foreground {
  mask: Uint8Array;
  width: number;
  height: number;
  /** Share of foreground pixels (0–1). */
  share: number;
  /** Whether a background colour was found; otherwise the central region stands in. */
  separated: boolean;
  box: Box;
  background: [number, number, number];
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : 0;
};

/**
 * The foreground of an image (Lab pixels, row-major): pixels far (ΔE > 12) from the median colour
 * of the 2-pixel border. When almost nothing or almost everything differs from the border (a
 * photo without a plain background), the central 70 % of the image stands in.
 */
export function findForeground(labs: Float32Array, width: number, height: number): Foreground {
  const border: number[][] = [[], [], []];
  const push = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    for (let c = 0; c < 3; c++) border[c].push(labs[i + c]);
  };
  for (let x = 0; x < width; x++) for (const y of [0, 1, height - 2, height - 1]) if (y >= 0 && y < height) push(x, y);
  for (let y = 2; y < height - 2; y++) for (const x of [0, 1, width - 2, width - 1]) if (x >= 0 && x < width) push(x, y);
  const bg: [number, number, number] = [median(border[0]), median(border[1]), median(border[2])];
  const mask = new Uint8Array(width * height);
  let count = 0;
  for (let i = 0; i < mask.length; i++) {
    const d = Math.hypot(labs[i * 3] - bg[0], labs[i * 3 + 1] - bg[1], labs[i * 3 + 2] - bg[2]);
    if (d > FOREGROUND_DELTA_E) {
      mask[i] = 1;
      count++;
    }
  }
  let share = count / mask.length;
  let separated = share >= 0.03 && share <= 0.97;
  if (!separated) {
    mask.fill(0);
    const x0 = Math.floor(width * 0.15);
    const x1 = Math.ceil(width * 0.85);
    const y0 = Math.floor(height * 0.15);
    const y1 = Math.ceil(height * 0.85);
    for (let y = y0; y < y1; y++) mask.fill(1, y * width + x0, y * width + x1);
    share = ((x1 - x0) * (y1 - y0)) / mask.length;
  }
  return { mask, width, height, share, separated, box: maskBox(mask, width, height), background: bg };
}

/** The box holding the foreground, ignoring the outer 1 % of its pixels on each side (specks). */
export function maskBox(mask: Uint8Array, width: number, height: number): Box {
  const cols = new Array<number>(width).fill(0);
  const rows = new Array<number>(height).fill(0);
  let total = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      cols[x]++;
      rows[y]++;
      total++;
    }
  }
  if (!total) return { x: 0, y: 0, width, height };
  const span = (counts: number[]) => {
    const cut = total * 0.01;
    let lo = 0;
    for (let acc = 0; lo < counts.length; lo++) if ((acc += counts[lo]) > cut) break;
    let hi = counts.length - 1;
    for (let acc = 0; hi > 0; hi--) if ((acc += counts[hi]) > cut) break;
    return hi >= lo ? [lo, hi] : [0, counts.length - 1];
  };
  const [x0, x1] = span(cols);
  const [y0, y1] = span(rows);
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** Occupancy of the foreground box on a grid×grid raster, box scaled to fit (aspect kept) and centred. */
export function shapeGrid(mask: Uint8Array, width: number, box: Box, grid = SHAPE_GRID): Float32Array {
  const out = new Float32Array(grid * grid);
  const scale = grid / Math.max(box.width, box.height);
  const offX = (grid - box.width * scale) / 2;
  const offY = (grid - box.height * scale) / 2;
  const cellArea = 1 / (scale * scale);
  for (let y = box.y; y < box.y + box.height; y++) {
    const gy = Math.min(grid - 1, Math.floor((y - box.y + 0.5) * scale + offY));
    for (let x = box.x; x < box.x + box.width; x++) {
      if (!mask[y * width + x]) continue;
      const gx = Math.min(grid - 1, Math.floor((x - box.x + 0.5) * scale + offX));
      out[gy * grid + gx] += 1 / cellArea;
    }
  }
  for (let i = 0; i < out.length; i++) out[i] = Math.min(1, out[i]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The whole image

export interface PreparedImage {
  /** 224×224 RGB (grey replicated) pixels of the foreground crop, for the CNN. */
  cnnInput: Uint8Array;
  shape: Float32Array;
  colour: Float32Array;
  foreground: { share: number; separated: boolean; box: Box };
  width: number;
  height: number;
}

/**
 * Decodes an image (EXIF orientation applied, alpha flattened on white) and computes the
 * model-free features and the CNN input. Throws when sharp cannot read the image.
 */
export async function prepareImage(bytes: Uint8Array): Promise<PreparedImage> {
  const { data, info } = await sharp(bytes, { limitInputPixels: 100_000_000 })
    .rotate()
    .resize(WORK_SIZE, WORK_SIZE, { fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: 3 as const } };
  const small = await sharp(data, raw).resize(MASK_SIZE, MASK_SIZE, { fit: "inside" }).raw().toBuffer({ resolveWithObject: true });
  const sw = small.info.width;
  const sh = small.info.height;
  const labs = new Float32Array(sw * sh * 3);
  for (let i = 0; i < sw * sh; i++) labs.set(srgbToLab(small.data[i * 3], small.data[i * 3 + 1], small.data[i * 3 + 2]), i * 3);
  const fg = findForeground(labs, sw, sh);
  const shape = shapeGrid(fg.mask, sw, fg.box);
  const colour = colourHistogram(labs, fg.mask);

  // The CNN sees the foreground box (plus a 4 % margin) of the working image, in grey, padded
  // to a square with the background's grey.
  const sx = info.width / sw;
  const sy = info.height / sh;
  const margin = Math.round(Math.max(fg.box.width * sx, fg.box.height * sy) * 0.04);
  const left = Math.max(0, Math.floor(fg.box.x * sx) - margin);
  const top = Math.max(0, Math.floor(fg.box.y * sy) - margin);
  const right = Math.min(info.width, Math.ceil((fg.box.x + fg.box.width) * sx) + margin);
  const bottom = Math.min(info.height, Math.ceil((fg.box.y + fg.box.height) * sy) + margin);
  const bgGrey = Math.round(Math.max(0, Math.min(100, fg.background[0])) * 2.55);
  const grey = await sharp(data, raw)
    .extract({ left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) })
    .greyscale()
    .resize(CNN_INPUT_SIZE, CNN_INPUT_SIZE, { fit: "contain", background: { r: bgGrey, g: bgGrey, b: bgGrey } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = grey.info.channels;
  const cnnInput = new Uint8Array(CNN_INPUT_SIZE * CNN_INPUT_SIZE * 3);
  for (let i = 0; i < CNN_INPUT_SIZE * CNN_INPUT_SIZE; i++) {
    const v = grey.data[i * channels];
    cnnInput[i * 3] = v;
    cnnInput[i * 3 + 1] = v;
    cnnInput[i * 3 + 2] = v;
  }
  return {
    cnnInput,
    shape,
    colour,
    foreground: {
      share: Math.round(fg.share * 1000) / 1000,
      separated: fg.separated,
      box: { x: Math.round(fg.box.x * sx), y: Math.round(fg.box.y * sy), width: Math.round(fg.box.width * sx), height: Math.round(fg.box.height * sy) },
    },
    width: info.width,
    height: info.height,
  };
}

// ---------------------------------------------------------------------------------------------
// Composition

function unit(v: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(v as ArrayLike<number>);
  let s = 0;
  for (const x of out) s += x * x;
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < out.length; i++) out[i] *= inv;
  }
  return out;
}

/**
 * The image vector: each block L2-normalised, scaled by √weight, concatenated (see the layout
 * above). A block that is all zeros stays zeros (the vector is then renormalised). CNN
 * activations (ReLU, ≥ 0) are square-rooted first, which evens out a few dominant channels.
 */
export function composeImageVector(parts: { cnn: ArrayLike<number>; shape: ArrayLike<number>; colour: ArrayLike<number> }): number[] {
  if (parts.cnn.length !== BLOCKS.cnn.length || parts.shape.length !== BLOCKS.shape.length || parts.colour.length !== BLOCKS.colour.length) {
    throw new Error(`Image feature blocks must be ${BLOCKS.cnn.length}/${BLOCKS.shape.length}/${BLOCKS.colour.length} long`);
  }
  const cnn = Float64Array.from(parts.cnn as ArrayLike<number>, (x) => Math.sign(x) * Math.sqrt(Math.abs(x)));
  const out = new Float64Array(IMAGE_EMBEDDING_DIMENSIONS);
  for (const [name, block] of Object.entries(BLOCKS) as [BlockName, (typeof BLOCKS)[BlockName]][]) {
    const u = unit(name === "cnn" ? cnn : parts[name]);
    const w = Math.sqrt(block.weight);
    for (let i = 0; i < block.length; i++) out[block.offset + i] = u[i] * w;
  }
  const n = unit(out);
  return Array.from(n, (x) => Math.round(x * 1e7) / 1e7);
}

/** One block of an image vector, as stored (for tests and diagnostics). */
export function blockOf(vector: ArrayLike<number>, name: BlockName): number[] {
  const b = BLOCKS[name];
  return Array.from({ length: b.length }, (_, i) => vector[b.offset + i]);
}
