/**
 * The demo's material tree and each demo product's materials, mapped from its companion's
 * "Composition" section by the same rules as the companion's reanalyze call.
 */
import type { PrismaClient } from "@prisma/client";
import { ensureMaterialTree } from "../../app/services/materials/default-tree";
import { mapComposition } from "../../app/services/materials/categories.server";

interface CompanionRow {
  shopify_product_id: string;
  material_sections?: unknown;
}

function compositionOf(sections: unknown): string {
  if (!Array.isArray(sections)) return "";
  const s = sections.find((x): x is { title: string; content: string } => !!x && typeof x === "object" && (x as { title?: unknown }).title === "Composition");
  return s?.content ?? "";
}

export async function seedDemoMaterials(db: PrismaClient, companions: CompanionRow[]): Promise<number> {
  await ensureMaterialTree(db);
  const categories = await db.materialCategory.findMany({ select: { id: true, name: true, handle: true, parent_id: true, keywords: true } });
  const data = companions.flatMap((c) =>
    mapComposition(compositionOf(c.material_sections), categories).map((m) => ({ product_id: c.shopify_product_id, material_category_id: m.category.id, percent: m.percent })),
  );
  for (let i = 0; i < data.length; i += 2000) await db.productMaterial.createMany({ data: data.slice(i, i + 2000), skipDuplicates: true });
  return data.length;
}

/** A database seeded before material categories existed gets the tree and its products' materials once. */
export async function ensureDemoMaterials(db: PrismaClient): Promise<boolean> {
  if ((await db.materialCategory.count()) > 0) return false;
  const companions = await db.productCompanion.findMany({ select: { shopify_product_id: true, material_sections: true } });
  await seedDemoMaterials(db, companions);
  return true;
}
