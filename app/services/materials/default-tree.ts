/**
 * The starting material tree (demo data, and a fresh store's first start): grouped like a shop's
 * filter, with the words Taobao and English product texts use for each material.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";

export interface TreeSeed {
  name: string;
  handle: string;
  keywords?: string[];
  children?: TreeSeed[];
}

export const DEFAULT_MATERIAL_TREE: TreeSeed[] = [
  {
    name: "Natural fibres",
    handle: "natural-fibres",
    children: [
      { name: "Cotton", handle: "cotton", keywords: ["cotton", "organic cotton", "pima cotton", "棉", "纯棉"] },
      { name: "Linen", handle: "linen", keywords: ["linen", "flax", "亚麻", "苎麻", "麻"] },
      { name: "Hemp", handle: "hemp", keywords: ["hemp", "汉麻"] },
      {
        name: "Wool",
        handle: "wool",
        keywords: ["wool", "lambswool", "羊毛", "绵羊毛"],
        children: [
          { name: "Merino", handle: "merino", keywords: ["merino", "merino wool"] },
          { name: "Cashmere", handle: "cashmere", keywords: ["cashmere", "羊绒", "山羊绒"] },
          { name: "Mohair", handle: "mohair", keywords: ["mohair", "马海毛"] },
          { name: "Alpaca", handle: "alpaca", keywords: ["alpaca", "羊驼毛"] },
        ],
      },
      { name: "Silk", handle: "silk", keywords: ["silk", "mulberry silk", "真丝", "桑蚕丝", "蚕丝"] },
    ],
  },
  {
    name: "Synthetics",
    handle: "synthetics",
    children: [
      { name: "Polyester", handle: "polyester", keywords: ["polyester", "涤纶", "聚酯纤维"] },
      { name: "Nylon", handle: "nylon", keywords: ["nylon", "polyamide", "锦纶", "尼龙", "聚酰胺"] },
      { name: "Elastane", handle: "elastane", keywords: ["elastane", "spandex", "lycra", "氨纶"] },
      { name: "Acrylic", handle: "acrylic", keywords: ["acrylic", "腈纶"] },
    ],
  },
  {
    name: "Cellulosics",
    handle: "cellulosics",
    children: [
      { name: "Viscose", handle: "viscose", keywords: ["viscose", "rayon", "粘纤", "粘胶", "黏纤", "人造棉"] },
      { name: "Modal", handle: "modal", keywords: ["modal", "莫代尔"] },
      { name: "Lyocell", handle: "lyocell", keywords: ["lyocell", "tencel", "天丝", "莱赛尔"] },
      { name: "Cupro", handle: "cupro", keywords: ["cupro", "铜氨"] },
    ],
  },
  {
    name: "Leather",
    handle: "leather",
    keywords: ["leather", "真皮", "皮革"],
    children: [{ name: "Suede", handle: "suede", keywords: ["suede", "麂皮"] }],
  },
  { name: "Blends", handle: "blends", keywords: ["blend", "混纺"] },
];

/** Writes the default tree when there is none yet (an admin's own tree is never touched). Answers whether it did. */
export async function ensureMaterialTree(db: Db, tree: TreeSeed[] = DEFAULT_MATERIAL_TREE): Promise<boolean> {
  if ((await db.materialCategory.count()) > 0) return false;
  const rows: Prisma.MaterialCategoryCreateManyInput[] = [];
  const walk = (nodes: TreeSeed[], parent: string | null) =>
    nodes.forEach((n, i) => {
      const id = crypto.randomUUID();
      rows.push({ id, name: n.name, handle: n.handle, keywords: n.keywords ?? [], parent_id: parent, sort_order: i });
      if (n.children) walk(n.children, id);
    });
  walk(tree, null);
  await db.materialCategory.createMany({ data: rows, skipDuplicates: true });
  return true;
}
