/**
 * Renders the demo images with sharp into `<uploadsDir>/images/demo/`, once per distinct file:
 * files already on disk are kept, so re-seeding is fast. Files are written under a temporary
 * name and renamed, so an interrupted run never leaves a truncated image behind.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { garmentSvg, type GarmentKind, type Pattern } from "./garment-svg";

export const DEMO_IMAGE_DIR = path.join("images", "demo");
export const DEMO_URL_PREFIX = "/uploads/images/demo";

export interface ImageJob {
  file: string;
  svg: () => string;
  width: number;
  height: number;
}

export function garmentImageFile(typeKey: string, colourSlug: string, pattern: Pattern): string {
  return `${typeKey}-${colourSlug}-${pattern}.jpg`;
}

export function garmentImageJob(typeKey: string, kind: GarmentKind, colourSlug: string, hex: string, pattern: Pattern, denim: boolean): ImageJob {
  return {
    file: garmentImageFile(typeKey, colourSlug, pattern),
    svg: () => garmentSvg(kind, hex, pattern, { denim }),
    width: 600,
    height: 800,
  };
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A store logo: a monogram on a coloured disc. */
export function storeLogoJob(handle: string, monogram: string, color: string): ImageJob {
  const size = monogram.length > 2 ? 112 : monogram.length === 2 ? 136 : 176;
  return {
    file: `store-${handle}.jpg`,
    width: 400,
    height: 400,
    svg: () =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">` +
      `<rect width="400" height="400" fill="#f5f3ef"/>` +
      `<circle cx="200" cy="200" r="170" fill="${color}"/>` +
      `<circle cx="200" cy="200" r="152" fill="none" stroke="#ffffff" stroke-width="3" opacity="0.6"/>` +
      `<text x="200" y="${200 + size * 0.35}" text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif" font-size="${size}" fill="#ffffff" letter-spacing="4">${escapeXml(monogram)}</text>` +
      `</svg>`,
  };
}

export interface RenderStats {
  rendered: number;
  existing: number;
  ms: number;
}

/** Writes every job's file unless it exists. Runs a few renders at once (libvips threads). */
export async function renderImages(uploadsDir: string, jobs: ImageJob[], concurrency = 4): Promise<RenderStats> {
  const started = performance.now();
  const dir = path.join(uploadsDir, DEMO_IMAGE_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const unique = new Map<string, ImageJob>();
  for (const j of jobs) unique.set(j.file, j);
  const todo = [...unique.values()].filter((j) => !fs.existsSync(path.join(dir, j.file)));
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const job = todo[next++];
      const target = path.join(dir, job.file);
      const tmp = `${target}.${process.pid}.tmp`;
      await sharp(Buffer.from(job.svg()))
        .resize(job.width, job.height)
        .flatten({ background: "#f5f3ef" })
        .jpeg({ quality: 84, progressive: true })
        .toFile(tmp);
      fs.renameSync(tmp, target);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, todo.length)) }, worker));
  return { rendered: todo.length, existing: unique.size - todo.length, ms: Math.round(performance.now() - started) };
}
