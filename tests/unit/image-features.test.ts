/**
 * The model-free parts of the image vector (app/providers/image-embedding/features.ts): colour
 * conversion and histogram, foreground, silhouette grid, and the vector layout.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  BLOCKS,
  COLOUR_BINS,
  IMAGE_EMBEDDING_DIMENSIONS,
  IMAGE_EMBEDDING_MODEL,
  SHAPE_GRID,
  blockOf,
  colourBin,
  colourHistogram,
  composeImageVector,
  findForeground,
  maskBox,
  prepareImage,
  shapeGrid,
  srgbToLab,
} from "../../app/providers/image-embedding/features";
import { rgbToLab } from "../../app/services/color.server";

const norm = (v: ArrayLike<number>) => Math.hypot(...Array.from(v));
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((s, x, i) => s + x * b[i], 0);
const cos = (a: ArrayLike<number>, b: ArrayLike<number>) => dot(a, b) / (norm(a) * norm(b));

/** A w×h image: background colour with a filled rectangle. */
async function rectangle(w: number, h: number, bg: string, fg: string, r: { x: number; y: number; width: number; height: number }) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="${bg}"/><rect x="${r.x}" y="${r.y}" width="${r.width}" height="${r.height}" fill="${fg}"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe("vector layout", () => {
  it("has 1524 dimensions in three blocks whose weights sum to 1", () => {
    expect(IMAGE_EMBEDDING_DIMENSIONS).toBe(1524);
    expect(BLOCKS.cnn).toMatchObject({ offset: 0, length: 1280 });
    expect(BLOCKS.shape).toMatchObject({ offset: 1280, length: SHAPE_GRID * SHAPE_GRID });
    expect(BLOCKS.colour).toMatchObject({ offset: 1424, length: COLOUR_BINS });
    expect(COLOUR_BINS).toBe(100);
    expect(BLOCKS.cnn.weight + BLOCKS.shape.weight + BLOCKS.colour.weight).toBeCloseTo(1, 10);
    expect(IMAGE_EMBEDDING_MODEL).toMatch(/^mnv2-flatten1/);
  });

  const rand = (n: number, seed: number) => Array.from({ length: n }, (_, i) => Math.abs(Math.sin(seed * 97 + i * 13.7)));

  it("composes unit vectors whose blocks have length √weight, and whose cosine is the weighted sum of block cosines", () => {
    const a = { cnn: rand(1280, 1), shape: rand(144, 2), colour: rand(100, 3) };
    const b = { cnn: rand(1280, 4), shape: rand(144, 5), colour: rand(100, 6) };
    const va = composeImageVector(a);
    const vb = composeImageVector(b);
    expect(va).toHaveLength(IMAGE_EMBEDDING_DIMENSIONS);
    expect(norm(va)).toBeCloseTo(1, 5);
    for (const name of ["cnn", "shape", "colour"] as const) expect(norm(blockOf(va, name))).toBeCloseTo(Math.sqrt(BLOCKS[name].weight), 5);
    const sqrtCnn = (v: number[]) => v.map(Math.sqrt);
    const expected =
      BLOCKS.cnn.weight * cos(sqrtCnn(a.cnn), sqrtCnn(b.cnn)) + BLOCKS.shape.weight * cos(a.shape, b.shape) + BLOCKS.colour.weight * cos(a.colour, b.colour);
    expect(dot(va, vb)).toBeCloseTo(expected, 5);
  });

  it("keeps an empty block at zero and refuses blocks of the wrong length", () => {
    const v = composeImageVector({ cnn: rand(1280, 1), shape: new Array(144).fill(0), colour: rand(100, 3) });
    expect(norm(blockOf(v, "shape"))).toBe(0);
    expect(norm(v)).toBeCloseTo(1, 5);
    expect(() => composeImageVector({ cnn: rand(100, 1), shape: rand(144, 2), colour: rand(100, 3) })).toThrow(/1280\/144\/100/);
  });
});

describe("colour", () => {
  it("converts sRGB to CIELAB like the app's colour module (culori, D65), within 0.05", () => {
    for (const [r, g, b] of [[255, 255, 255], [0, 0, 0], [192, 57, 43], [46, 134, 193], [244, 208, 63], [128, 128, 128]]) {
      const [l, a, bb] = srgbToLab(r, g, b);
      const ref = rgbToLab(r, g, b);
      expect(l).toBeCloseTo(ref.l, 1);
      expect(a).toBeCloseTo(ref.a, 1);
      expect(bb).toBeCloseTo(ref.b, 1);
    }
  });

  it("bins Lab into 4 × 5 × 5 cells with the near-neutrals in the middle a/b cell", () => {
    expect(colourBin(0, 0, 0)).toBe(0 * 25 + 2 * 5 + 2);
    expect(colourBin(99, 0, 0)).toBe(3 * 25 + 2 * 5 + 2);
    expect(colourBin(50, 60, 40)).toBe(2 * 25 + 4 * 5 + 4); // a saturated red
    expect(colourBin(50, -60, -40)).toBe(2 * 25 + 0 * 5 + 0);
    expect(new Set([colourBin(10, 0, 0), colourBin(30, 0, 0), colourBin(60, 0, 0), colourBin(90, 0, 0)]).size).toBe(4);
  });

  it("counts only masked pixels, square-rooted so the histogram has unit length", () => {
    const labs = new Float32Array([50, 60, 40, 50, 60, 40, 50, 60, 40, 95, 0, 0]);
    const h = colourHistogram(labs, new Uint8Array([1, 1, 1, 0]));
    expect(norm(h)).toBeCloseTo(1, 6);
    expect(h[colourBin(50, 60, 40)]).toBeCloseTo(1, 6);
    expect(h[colourBin(95, 0, 0)]).toBe(0);
    expect(norm(colourHistogram(labs, new Uint8Array(4)))).toBe(0);
  });
});

describe("foreground and silhouette", () => {
  const labImage = (w: number, h: number, inside: (x: number, y: number) => boolean, fg: [number, number, number], bg: [number, number, number] = [96, 0, 2]) => {
    const labs = new Float32Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) labs.set(inside(x, y) ? fg : bg, (y * w + x) * 3);
    return labs;
  };

  it("finds the object against the border colour, and its box", () => {
    const fg = findForeground(labImage(40, 60, (x, y) => x >= 10 && x < 30 && y >= 20 && y < 50, [40, 50, 30]), 40, 60);
    expect(fg.separated).toBe(true);
    expect(fg.share).toBeCloseTo((20 * 30) / (40 * 60), 3);
    expect(fg.box).toEqual({ x: 10, y: 20, width: 20, height: 30 });
  });

  it("uses the central 70 % when nothing stands out from the border", () => {
    const fg = findForeground(labImage(20, 20, () => false, [0, 0, 0]), 20, 20);
    expect(fg.separated).toBe(false);
    expect(fg.box).toEqual({ x: 3, y: 3, width: 14, height: 14 });
  });

  it("ignores a speck when measuring the box", () => {
    const mask = new Uint8Array(100 * 100);
    for (let y = 30; y < 70; y++) for (let x = 40; x < 60; x++) mask[y * 100 + x] = 1;
    mask[0] = 1; // one stray pixel in the corner
    expect(maskBox(mask, 100, 100)).toEqual({ x: 40, y: 30, width: 20, height: 40 });
  });

  it("rasterises the silhouette on the grid, centred with its aspect kept", () => {
    // A full box twice as tall as wide: the middle half of the columns is filled.
    const w = 24;
    const h = 48;
    const g = shapeGrid(new Uint8Array(w * h).fill(1), w, { x: 0, y: 0, width: w, height: h });
    expect(g).toHaveLength(SHAPE_GRID * SHAPE_GRID);
    const row = Array.from(g.slice(6 * SHAPE_GRID, 7 * SHAPE_GRID));
    expect(row).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0]);
    // A tall garment and a wide one do not look alike; two tall ones do.
    const wide = shapeGrid(new Uint8Array(48 * 24).fill(1), 48, { x: 0, y: 0, width: 48, height: 24 });
    expect(cos(g, wide)).toBeLessThan(0.6);
    expect(cos(g, shapeGrid(new Uint8Array(w * h).fill(1), w, { x: 0, y: 0, width: w, height: h }))).toBeCloseTo(1, 6);
  });
});

describe("prepareImage", () => {
  it("crops the CNN input to the object, in grey, and describes its shape and colour", async () => {
    const png = await rectangle(300, 400, "#f5f3ef", "#c0392b", { x: 100, y: 100, width: 100, height: 200 });
    const p = await prepareImage(png);
    expect(p.cnnInput).toHaveLength(224 * 224 * 3);
    // Grey: the three channels are equal everywhere.
    for (let i = 0; i < p.cnnInput.length; i += 997 * 3) expect(new Set([p.cnnInput[i], p.cnnInput[i + 1], p.cnnInput[i + 2]]).size).toBe(1);
    expect(p.foreground.separated).toBe(true);
    expect(p.foreground.share).toBeCloseTo((100 * 200) / (300 * 400), 1);
    expect(p.foreground.box.x).toBeGreaterThanOrEqual(95);
    expect(p.foreground.box.width).toBeLessThanOrEqual(110);
    const red = srgbToLab(0xc0, 0x39, 0x2b);
    expect(p.colour[colourBin(red[0], red[1], red[2])]).toBeGreaterThan(0.95);
    // The same object elsewhere and at another size has the same shape.
    const moved = await prepareImage(await rectangle(600, 600, "#ffffff", "#2e86c1", { x: 50, y: 100, width: 150, height: 300 }));
    expect(cos(p.shape, moved.shape)).toBeGreaterThan(0.95);
    expect(cos(p.colour, moved.colour)).toBeLessThan(0.1);
  });

  it("applies the EXIF orientation and refuses what is not an image", async () => {
    const png = await rectangle(300, 200, "#ffffff", "#000000", { x: 0, y: 0, width: 10, height: 10 });
    const rotated = await sharp(png).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const p = await prepareImage(rotated);
    expect([p.width, p.height]).toEqual([200, 300]);
    await expect(prepareImage(new Uint8Array([1, 2, 3, 4]))).rejects.toThrow();
  });
});
