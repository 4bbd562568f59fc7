/**
 * Image fixtures for the vision tests: garment renders made with the demo catalogue's SVGs
 * (prisma/demo/garment-svg.ts, rendered like prisma/demo/images.server.ts), and a photo of a
 * person cut from the sample sheet that ships with @vladmandic/human (assets/samples.jpg).
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { garmentSvg, type GarmentKind, type Pattern } from "../../prisma/demo/garment-svg";
import { uploadsDir } from "../../app/providers/storage.server";
import type { AppConfig } from "../../app/config.server";

export async function renderGarment(kind: GarmentKind, hex: string, pattern: Pattern = "solid"): Promise<Buffer> {
  return sharp(Buffer.from(garmentSvg(kind, hex, pattern, { denim: kind === "jeans" })))
    .resize(600, 800)
    .flatten({ background: "#f5f3ef" })
    .jpeg({ quality: 84 })
    .toBuffer();
}

/** Writes a render where the products fixtures point their first image: `/uploads/images/test/<n>-0.jpg`. */
export async function writeFixtureImage(config: Pick<AppConfig, "DATA_DIR">, n: number, image: Buffer): Promise<string> {
  const file = path.join(uploadsDir(config), "images", "test", `${n}-0.jpg`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, image);
  return `/uploads/images/test/${n}-0.jpg`;
}

export const HUMAN_SAMPLES = path.resolve("node_modules/@vladmandic/human/assets/samples.jpg");

/** A 320×380 photo of one woman (the second tile of human's sample sheet, upscaled ×2). */
export async function personPhoto(): Promise<Buffer> {
  return sharp(HUMAN_SAMPLES).extract({ left: 160, top: 0, width: 160, height: 190 }).resize(320, 380).jpeg({ quality: 90 }).toBuffer();
}
