/**
 * The crop rectangle of the photo search, as pure functions over image pixels: start, move,
 * resize by a corner or edge, keyboard steps, and the size of a scaled output.
 */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Size {
  width: number;
  height: number;
}

/** Corners and edges a crop can be resized by. */
export type Handle = "nw" | "n" | "ne" | "e" | "se" | "s" | "sw" | "w";

export const HANDLES: readonly Handle[] = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];

/** The smallest crop side, in image pixels (or the image side when smaller). */
export const MIN_CROP = 32;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The starting crop: the whole image. */
export function fullRect(size: Size): Rect {
  return { x: 0, y: 0, w: size.width, h: size.height };
}

/** The rectangle kept inside the image, at least the minimum size, in whole pixels. */
export function clampRect(r: Rect, size: Size, min: number = MIN_CROP): Rect {
  const minW = Math.min(min, size.width);
  const minH = Math.min(min, size.height);
  const w = clamp(Math.round(r.w), minW, size.width);
  const h = clamp(Math.round(r.h), minH, size.height);
  const x = clamp(Math.round(r.x), 0, size.width - w);
  const y = clamp(Math.round(r.y), 0, size.height - h);
  return { x, y, w, h };
}

/** The rectangle moved by (dx, dy), kept inside the image at its size. */
export function moveRect(r: Rect, dx: number, dy: number, size: Size): Rect {
  return clampRect({ ...r, x: r.x + dx, y: r.y + dy }, size);
}

/**
 * The rectangle resized by dragging `handle` by (dx, dy): the opposite side stays where it is,
 * and the dragged side stops at the image border and at the minimum size.
 */
export function resizeRect(r: Rect, handle: Handle, dx: number, dy: number, size: Size, min: number = MIN_CROP): Rect {
  const minW = Math.min(min, size.width);
  const minH = Math.min(min, size.height);
  let left = r.x;
  let top = r.y;
  let right = r.x + r.w;
  let bottom = r.y + r.h;
  if (handle.includes("w")) left = clamp(left + dx, 0, right - minW);
  if (handle.includes("e")) right = clamp(right + dx, left + minW, size.width);
  if (handle.includes("n")) top = clamp(top + dy, 0, bottom - minH);
  if (handle.includes("s")) bottom = clamp(bottom + dy, top + minH, size.height);
  return clampRect({ x: left, y: top, w: right - left, h: bottom - top }, size, min);
}

/** A keyboard step: 1% of the image's longer side (at least 1 px), 10% with Shift. */
export function keyStep(size: Size, large: boolean): number {
  return Math.max(1, Math.round(Math.max(size.width, size.height) * (large ? 0.1 : 0.01)));
}

/**
 * Keyboard control of the crop: arrows move it; with Alt (or when `resize` is on) the arrows
 * move the right and bottom edges instead. Answers null for keys that do nothing.
 */
export function rectForKey(r: Rect, key: string, size: Size, opts: { shift?: boolean; resize?: boolean } = {}): Rect | null {
  const step = keyStep(size, !!opts.shift);
  const d: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  const delta = d[key];
  if (!delta) return null;
  return opts.resize ? resizeRect(r, "se", delta[0], delta[1], size) : moveRect(r, delta[0], delta[1], size);
}

/** Whether the rectangle is the whole image. */
export function isFullRect(r: Rect, size: Size): boolean {
  return r.x === 0 && r.y === 0 && r.w === size.width && r.h === size.height;
}

/** A size scaled down (never up) so its longer side is at most `max`. */
export function fitWithin(size: Size, max: number): Size {
  const longer = Math.max(size.width, size.height);
  if (longer <= max || longer === 0) return { width: size.width, height: size.height };
  const k = max / longer;
  return { width: Math.max(1, Math.round(size.width * k)), height: Math.max(1, Math.round(size.height * k)) };
}

/** A rectangle in display pixels from one in image pixels (`scale` = display / image). */
export function scaleRect(r: Rect, scale: number): Rect {
  return { x: r.x * scale, y: r.y * scale, w: r.w * scale, h: r.h * scale };
}
