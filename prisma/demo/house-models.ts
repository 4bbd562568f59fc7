/**
 * Two public clones ("house models") for the demo, so a new shopper can try a product on before
 * making a clone of their own. Admin clones without a LoRA: ready at once, like `POST
 * /clones/admin` with `train: false`. Fixed ids, so re-seeding replaces them.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PrismaClient } from "@prisma/client";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const KEY_DIR = path.join("images", "demo", "people");

export const HOUSE_MODELS = [
  { id: "00000000-0000-4000-8000-00000000c101", name: "Maya (house model)", gender: "womenswear", file: "house-model-1.jpg" },
  { id: "00000000-0000-4000-8000-00000000c102", name: "Elena (house model)", gender: "womenswear", file: "house-model-2.jpg" },
] as const;

export async function seedHouseModels(db: PrismaClient, uploadsDir: string): Promise<number> {
  await fs.mkdir(path.join(uploadsDir, KEY_DIR), { recursive: true });
  await db.clone.deleteMany({ where: { id: { in: HOUSE_MODELS.map((m) => m.id) } } });
  for (const m of HOUSE_MODELS) {
    await fs.copyFile(path.join(HERE, "people", m.file), path.join(uploadsDir, KEY_DIR, m.file));
    const url = `/uploads/${KEY_DIR.split(path.sep).join("/")}/${m.file}`;
    await db.clone.create({
      data: {
        id: m.id,
        user_id: null,
        name: m.name,
        gender: m.gender,
        baseImageUrls: [url],
        profileImageUrl: url,
        isPublic: true,
        processing_status: "READY",
        outfit_generation_status: "COMPLETED",
        processing_progress: 100,
        attributes: { house_model: true },
      },
    });
  }
  return HOUSE_MODELS.length;
}
