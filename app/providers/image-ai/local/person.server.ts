/**
 * Person analysis for clone photos and try-on: how many people, the face box, 17 body keypoints
 * (COCO order, snake_case names: nose, left_eye, …, right_ankle; "left" is the person's left)
 * and a person mask, with the verdict whether the photo is usable for a clone.
 *
 * Works on a copy of the photo scaled to at most ANALYSIS_MAX px on the long side (the models
 * look at 192–256 px anyway); boxes and keypoints are answered in the photo's own pixels (after
 * EXIF orientation). Results are cached by sha256 of the bytes: in memory, and on disk under
 * `<cacheDir>/people/<sha>.json` (+ `<sha>.mask.png`, the mask at analysis size) when a cacheDir
 * is given.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { Box } from "../port";
import { detectHuman, FACE_MIN_SCORE } from "~/providers/ml/human.server";

export const ANALYSIS_MAX = 768;
export const MIN_SHORT_SIDE = 512;
export const KEYPOINT_MIN_SCORE = 0.3;

export const KEYPOINT_NAMES = [
  "nose",
  "left_eye",
  "right_eye",
  "left_ear",
  "right_ear",
  "left_shoulder",
  "right_shoulder",
  "left_elbow",
  "right_elbow",
  "left_wrist",
  "right_wrist",
  "left_hip",
  "right_hip",
  "left_knee",
  "right_knee",
  "left_ankle",
  "right_ankle",
] as const;
export type KeypointName = (typeof KEYPOINT_NAMES)[number];

export const PERSON_REASONS = {
  none: "No person found in this photo",
  many: (n: number) => `More than one person in this photo (${n} found)`,
  face: "The face is not visible",
  small: `Too small: at least ${MIN_SHORT_SIDE} px on the short side`,
  shoulders: "Shoulders and hips must be visible",
} as const;

export interface Keypoint {
  name: string;
  x: number;
  y: number;
  score: number;
}

export interface PersonAnalysis {
  people: number;
  faceBox: Box | null;
  keypoints: Keypoint[];
  width: number;
  height: number;
  usable: boolean;
  reason?: string;
}

export interface PersonMask {
  /** One byte per pixel (0 background … 255 person), maskWidth × maskHeight (the analysis size). */
  data: Uint8Array;
  width: number;
  height: number;
}

export interface PersonDetails {
  sha: string;
  analysis: PersonAnalysis;
  mask: PersonMask;
  /** Confidence that the hips are visible (both hip keypoints); lowers try-on quality when false. */
  hips: boolean;
}

const CACHE_VERSION = 1;
const memory = new Map<string, PersonDetails>();
const MEMORY_MAX = 64;
/** Counts model runs (not cache hits): tests and the benchmark read it. */
export const personStats = { analysed: 0, diskHits: 0, memoryHits: 0 };

export function sha256(bytes: Uint8Array): string {
  return crypto.createHash("sha256").update(bytes).digest("hex");
}

const camelToSnake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function keypoint(a: PersonAnalysis, name: KeypointName, minScore = KEYPOINT_MIN_SCORE): Keypoint | null {
  const k = a.keypoints.find((p) => p.name === name);
  return k && k.score >= minScore ? k : null;
}

function round(n: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Decodes (EXIF-rotated) to RGB at most `max` px on the long side. */
export async function decodeRgb(bytes: Uint8Array, max: number): Promise<{ data: Uint8Array; width: number; height: number; origWidth: number; origHeight: number }> {
  const img = sharp(bytes, { failOn: "none" }).rotate();
  const meta = await sharp(bytes, { failOn: "none" }).metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const origWidth = (swap ? meta.height : meta.width) ?? 0;
  const origHeight = (swap ? meta.width : meta.height) ?? 0;
  if (!origWidth || !origHeight) throw new Error("Not an image");
  const { data, info } = await img
    .resize({ width: max, height: max, fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, origWidth, origHeight };
}

function verdict(people: number, faceBox: Box | null, keypoints: Keypoint[], width: number, height: number): { usable: boolean; reason?: string } {
  const a = { keypoints } as PersonAnalysis;
  if (people === 0) return { usable: false, reason: PERSON_REASONS.none };
  if (people > 1) return { usable: false, reason: PERSON_REASONS.many(people) };
  if (!faceBox) return { usable: false, reason: PERSON_REASONS.face };
  if (Math.min(width, height) < MIN_SHORT_SIDE) return { usable: false, reason: PERSON_REASONS.small };
  if (!keypoint(a, "left_shoulder") || !keypoint(a, "right_shoulder")) return { usable: false, reason: PERSON_REASONS.shoulders };
  return { usable: true };
}

async function compute(bytes: Uint8Array, sha: string): Promise<PersonDetails> {
  const img = await decodeRgb(bytes, ANALYSIS_MAX);
  const { result, mask } = await detectHuman("person", img.data, img.width, img.height);
  personStats.analysed++;
  const sx = img.origWidth / img.width;
  const sy = img.origHeight / img.height;

  const faces = result.face
    .filter((f) => (f.boxScore ?? f.score) >= FACE_MIN_SCORE)
    // a face must be a reasonable size relative to the picture (ignore tiny faces in the background)
    .filter((f) => f.box[2] * f.box[3] >= img.width * img.height * 0.0015)
    .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const body = result.body[0];
  // all 17 COCO keypoints in order; the ones the model is not sure of (not answered) have score 0
  const found = new Map((body?.keypoints ?? []).map((k) => [camelToSnake(k.part), k]));
  const keypoints: Keypoint[] = KEYPOINT_NAMES.map((name) => {
    const k = found.get(name);
    return k ? { name, x: round(k.position[0] * sx, 1), y: round(k.position[1] * sy, 1), score: round(k.score, 3) } : { name, x: 0, y: 0, score: 0 };
  });
  const kp = { keypoints } as PersonAnalysis;
  const shoulders = !!(keypoint(kp, "left_shoulder") && keypoint(kp, "right_shoulder"));
  const hips = !!(keypoint(kp, "left_hip") && keypoint(kp, "right_hip"));
  // mask coverage, to tell a pose found on a garment or an empty room from a person
  let covered = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] > 127) covered++;
  const coverage = covered / Math.max(1, mask.length);
  const bodyIsPerson = !!body && body.score >= 0.3 && shoulders && coverage > 0.05;
  const people = faces.length > 0 ? faces.length : bodyIsPerson ? 1 : 0;

  let faceBox: Box | null = null;
  if (faces.length > 0) {
    const [x, y, w, h] = faces[0].box;
    const fx = Math.max(0, x * sx);
    const fy = Math.max(0, y * sy);
    faceBox = {
      x: Math.round(fx),
      y: Math.round(fy),
      width: Math.max(1, Math.round(Math.min(img.origWidth - fx, w * sx))),
      height: Math.max(1, Math.round(Math.min(img.origHeight - fy, h * sy))),
    };
  }
  const analysis: PersonAnalysis = {
    people,
    faceBox,
    keypoints,
    width: img.origWidth,
    height: img.origHeight,
    ...verdict(people, faceBox, keypoints, img.origWidth, img.origHeight),
  };
  return { sha, analysis, mask: { data: mask, width: img.width, height: img.height }, hips };
}

function remember(d: PersonDetails): PersonDetails {
  memory.delete(d.sha);
  memory.set(d.sha, d);
  while (memory.size > MEMORY_MAX) memory.delete(memory.keys().next().value as string);
  return d;
}

const inflight = new Map<string, Promise<PersonDetails>>();

/** Analysis plus the person mask (cached like analyzePerson). */
export async function analyzePersonDetails(bytes: Uint8Array, opts: { cacheDir?: string } = {}): Promise<PersonDetails> {
  const sha = sha256(bytes);
  const hit = memory.get(sha);
  if (hit) {
    personStats.memoryHits++;
    return hit;
  }
  const running = inflight.get(sha);
  if (running) return running;
  const work = (async () => {
    const dir = opts.cacheDir ? path.join(opts.cacheDir, "people") : null;
    if (dir) {
      try {
        const json = JSON.parse(await fs.readFile(path.join(dir, `${sha}.json`), "utf8")) as { v?: number; analysis: PersonAnalysis; hips: boolean };
        if (json.v !== CACHE_VERSION) throw new Error("stale cache entry");
        const { data, info } = await sharp(await fs.readFile(path.join(dir, `${sha}.mask.png`)))
          .extractChannel(0)
          .raw()
          .toBuffer({ resolveWithObject: true });
        personStats.diskHits++;
        return remember({ sha, analysis: json.analysis, hips: json.hips, mask: { data: new Uint8Array(data), width: info.width, height: info.height } });
      } catch {
        /* not cached yet */
      }
    }
    const d = await compute(bytes, sha);
    if (dir) {
      await fs.mkdir(dir, { recursive: true });
      const png = await sharp(Buffer.from(d.mask.data), { raw: { width: d.mask.width, height: d.mask.height, channels: 1 } }).png().toBuffer();
      const tmp = `.${process.pid}.${Date.now()}`;
      await fs.writeFile(path.join(dir, `${sha}.mask.png${tmp}`), png);
      await fs.rename(path.join(dir, `${sha}.mask.png${tmp}`), path.join(dir, `${sha}.mask.png`));
      await fs.writeFile(path.join(dir, `${sha}.json${tmp}`), JSON.stringify({ v: CACHE_VERSION, analysis: d.analysis, hips: d.hips }));
      await fs.rename(path.join(dir, `${sha}.json${tmp}`), path.join(dir, `${sha}.json`));
    }
    return remember(d);
  })();
  inflight.set(sha, work);
  try {
    return await work;
  } finally {
    inflight.delete(sha);
  }
}

/** Is this a usable photo of one person? Cached by sha256 of the bytes (see the file comment). */
export async function analyzePerson(bytes: Uint8Array, opts: { cacheDir?: string } = {}): Promise<PersonAnalysis> {
  return (await analyzePersonDetails(bytes, opts)).analysis;
}

/** The person mask as a PNG at the photo's size (white = person). */
export async function personMaskPng(d: PersonDetails): Promise<Buffer> {
  return sharp(Buffer.from(d.mask.data), { raw: { width: d.mask.width, height: d.mask.height, channels: 1 } })
    .resize(d.analysis.width, d.analysis.height, { fit: "fill" })
    .png()
    .toBuffer();
}

/** Forgets the in-memory cache (tests). */
export function clearPersonMemoryCache(): void {
  memory.clear();
}
