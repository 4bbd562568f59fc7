/**
 * The material category tree (app/contract/materials.ts): admin CRUD, the products' materials
 * mapped from composition text onto it, and the subtree lookup the search filter uses.
 *
 * The tree is small (tens of rows): every write reads it whole and checks shape in memory; writes
 * that change shape take a transaction-wide advisory lock so two moves cannot make a cycle together.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { MATERIAL_MAX_DEPTH, MaterialMessages as M, type MaterialCategory, type ProductMaterial } from "~/contract/materials";
import { conflictError, invalid, notFoundError } from "~/lib/domain-errors";
import { FIBRES, fibreWords, parseComposition } from "./composition";

const FIBRE_VOCABULARY = new Set(FIBRES.flatMap((f) => fibreWords(f.name)));

type Tx = Prisma.TransactionClient;
type Row = Prisma.MaterialCategoryGetPayload<{ include: { _count: { select: { products: true } } } }>;

/** Any constant: the advisory lock key of tree-shape writes. */
const TREE_LOCK = 19_0001;

async function readTree(db: Db | Tx): Promise<Row[]> {
  return db.materialCategory.findMany({ include: { _count: { select: { products: true } } } });
}

const bySiblingOrder = (a: Row, b: Row) => a.sort_order - b.sort_order || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/** Depth-first display order with depth and path. */
export function flattenTree(rows: Row[]): MaterialCategory[] {
  const children = new Map<string | null, Row[]>();
  for (const r of rows) {
    const k = r.parent_id ?? null;
    children.set(k, [...(children.get(k) ?? []), r]);
  }
  const out: MaterialCategory[] = [];
  const walk = (parent: string | null, depth: number, path: string[]) => {
    for (const r of (children.get(parent) ?? []).sort(bySiblingOrder)) {
      const p = [...path, r.handle];
      out.push({
        id: r.id,
        name: r.name,
        handle: r.handle,
        description: r.description,
        parent_id: r.parent_id,
        sort_order: r.sort_order,
        depth,
        path: p,
        keywords: r.keywords,
        product_count: r._count.products,
        created_at: r.created_at.toISOString(),
        updated_at: r.updated_at.toISOString(),
      });
      walk(r.id, depth + 1, p);
    }
  };
  walk(null, 0, []);
  return out;
}

export async function listMaterialTree(db: Db | Tx): Promise<{ categories: MaterialCategory[] }> {
  return { categories: flattenTree(await readTree(db)) };
}

async function viewOf(db: Db | Tx, id: string): Promise<MaterialCategory> {
  const c = flattenTree(await readTree(db)).find((x) => x.id === id);
  if (!c) throw notFoundError(M.NOT_FOUND);
  return c;
}

export const getMaterialCategory = (db: Db, id: string) => viewOf(db, id);

/** The ids of `id` and every category under it. */
export function subtreeIds(rows: { id: string; parent_id: string | null }[], id: string): string[] {
  const out = [id];
  for (let i = 0; i < out.length; i++) for (const r of rows) if (r.parent_id === out[i]) out.push(r.id);
  return out;
}

const depthOf = (rows: { id: string; parent_id: string | null }[], id: string | null): number => {
  let d = 0;
  for (let cur = id; cur; d++) cur = rows.find((r) => r.id === cur)?.parent_id ?? null;
  return d;
};
const heightOf = (rows: { id: string; parent_id: string | null }[], id: string): number => {
  const kids = rows.filter((r) => r.parent_id === id);
  return 1 + (kids.length ? Math.max(...kids.map((k) => heightOf(rows, k.id))) : 0);
};

export function handleOf(name: string): string {
  const h = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return h || "material";
}

const lockTree = (tx: Tx) => tx.$executeRaw`SELECT pg_advisory_xact_lock(${TREE_LOCK})`;

function uniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
}

export interface MaterialInput {
  name: string;
  handle?: string;
  description?: string | null;
  parent_id?: string | null;
  keywords?: string[];
}

export async function createMaterialCategory(db: Db, input: MaterialInput): Promise<MaterialCategory> {
  try {
    const id = await db.$transaction(async (tx) => {
      await lockTree(tx);
      const rows = await readTree(tx);
      const parent = input.parent_id ?? null;
      if (parent && !rows.some((r) => r.id === parent)) throw notFoundError(M.PARENT_NOT_FOUND);
      if (depthOf(rows, parent) + 1 > MATERIAL_MAX_DEPTH) throw invalid(M.TOO_DEEP);
      const handle = input.handle ?? handleOf(input.name);
      if (rows.some((r) => r.handle === handle)) throw conflictError(M.HANDLE_TAKEN);
      const siblings = rows.filter((r) => r.parent_id === parent);
      const row = await tx.materialCategory.create({
        data: {
          name: input.name,
          handle,
          description: input.description ?? null,
          parent_id: parent,
          keywords: input.keywords ?? [],
          sort_order: siblings.length ? Math.max(...siblings.map((s) => s.sort_order)) + 1 : 0,
        },
      });
      return row.id;
    });
    return viewOf(db, id);
  } catch (e) {
    if (uniqueViolation(e)) throw conflictError(M.HANDLE_TAKEN);
    throw e;
  }
}

export async function updateMaterialCategory(db: Db, id: string, input: Partial<MaterialInput>): Promise<MaterialCategory> {
  try {
    await db.$transaction(async (tx) => {
      await lockTree(tx);
      const rows = await readTree(tx);
      const row = rows.find((r) => r.id === id);
      if (!row) throw notFoundError(M.NOT_FOUND);
      const data: Prisma.MaterialCategoryUncheckedUpdateInput = {};
      if (input.name !== undefined) data.name = input.name;
      if (input.description !== undefined) data.description = input.description;
      if (input.keywords !== undefined) data.keywords = input.keywords;
      if (input.handle !== undefined && input.handle !== row.handle) {
        if (rows.some((r) => r.handle === input.handle)) throw conflictError(M.HANDLE_TAKEN);
        data.handle = input.handle;
      }
      if (input.parent_id !== undefined && (input.parent_id ?? null) !== row.parent_id) {
        const parent = input.parent_id ?? null;
        if (parent && !rows.some((r) => r.id === parent)) throw notFoundError(M.PARENT_NOT_FOUND);
        if (parent && subtreeIds(rows, id).includes(parent)) throw invalid(M.MOVE_INTO_ITSELF);
        if (depthOf(rows, parent) + heightOf(rows, id) > MATERIAL_MAX_DEPTH) throw invalid(M.TOO_DEEP);
        const siblings = rows.filter((r) => r.parent_id === parent);
        data.parent_id = parent;
        data.sort_order = siblings.length ? Math.max(...siblings.map((s) => s.sort_order)) + 1 : 0;
      }
      await tx.materialCategory.update({ where: { id }, data });
    });
  } catch (e) {
    if (uniqueViolation(e)) throw conflictError(M.HANDLE_TAKEN);
    throw e;
  }
  return viewOf(db, id);
}

export async function reorderMaterialCategories(db: Db, parentId: string | null, ids: string[]) {
  await db.$transaction(async (tx) => {
    await lockTree(tx);
    const rows = await readTree(tx);
    if (parentId && !rows.some((r) => r.id === parentId)) throw notFoundError(M.PARENT_NOT_FOUND);
    const siblings = new Set(rows.filter((r) => r.parent_id === parentId).map((r) => r.id));
    if (new Set(ids).size !== ids.length || ids.length !== siblings.size || ids.some((i) => !siblings.has(i))) throw invalid(M.ORDER_MISMATCH);
    for (const [i, id] of ids.entries()) await tx.materialCategory.update({ where: { id }, data: { sort_order: i } });
  });
  return listMaterialTree(db);
}

/** Deletes the category and its subtree, or refuses (409) when a product uses any of them. */
export async function deleteMaterialCategory(db: Db, id: string) {
  return db.$transaction(async (tx) => {
    await lockTree(tx);
    const rows = await readTree(tx);
    if (!rows.some((r) => r.id === id)) throw notFoundError(M.NOT_FOUND);
    const ids = subtreeIds(rows, id);
    const used = await tx.productMaterial.findMany({ where: { material_category_id: { in: ids } }, distinct: ["product_id"], select: { product_id: true } });
    if (used.length) throw conflictError(M.inUse(used.length), { products: used.length });
    // The foreign key cascades to the subtree.
    await tx.materialCategory.delete({ where: { id } });
    return { ok: true as const, deleted: ids.length };
  });
}

// ---------------------------------------------------------------------------------------------
// Mapping composition text onto the tree

export interface CategoryTerms {
  id: string;
  name: string;
  handle: string;
  parent_id: string | null;
  keywords: string[];
}

export interface MappedMaterial {
  category: CategoryTerms;
  percent: number | null;
}

const termsOf = (c: CategoryTerms) => [c.name, c.handle.replace(/-/g, " "), ...c.keywords].map((t) => t.toLowerCase().trim()).filter(Boolean);
const cjk = (s: string) => /[\u3400-\u9fff]/.test(s);
/** Whether `text` (lower-cased) has `term` as a word (any substring for Chinese). */
function hasTerm(text: string, term: string): boolean {
  if (cjk(term)) return text.includes(term);
  return new RegExp(`(^|[^a-z])${term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "[\\s-]+")}($|[^a-z])`).test(text);
}

/**
 * The categories a composition text names, with percentages: each fibre the parser reads
 * (parseComposition) goes to the deepest category whose words both name that fibre and appear in
 * the text ("80% merino wool" → Merino, under Wool), else to the shallowest category naming the
 * fibre ("80% wool" → Wool). Categories whose own words appear but name no parsed fibre (an admin's
 * "bamboo") are added without a percentage; with two fibres or more, a "blends" category is too.
 */
export function mapComposition(text: string, categories: CategoryTerms[]): MappedMaterial[] {
  const src = text.toLowerCase();
  const depth = new Map(categories.map((c) => [c.id, depthOf(categories, c.id)]));
  const out = new Map<string, MappedMaterial>();
  const add = (category: CategoryTerms, percent: number | null) => {
    const prev = out.get(category.id);
    const sum = prev && prev.percent !== null && percent !== null ? prev.percent + percent : (prev?.percent ?? percent);
    out.set(category.id, { category, percent: sum });
  };
  const claimed = new Set<string>();
  const fibres = parseComposition(text);
  for (const f of fibres) {
    const words = fibreWords(f.fibre);
    const naming = categories.filter((c) => termsOf(c).some((t) => words.includes(t)));
    if (!naming.length) continue;
    const inText = naming.filter((c) => termsOf(c).some((t) => words.includes(t) && hasTerm(src, t))).sort((a, b) => depth.get(b.id)! - depth.get(a.id)!);
    const pick = inText[0] ?? naming.sort((a, b) => depth.get(a.id)! - depth.get(b.id)!)[0];
    add(pick, f.percent);
    for (const c of naming) claimed.add(c.id);
  }
  for (const c of categories) {
    if (claimed.has(c.id) || out.has(c.id) || c.handle === "blends") continue;
    // Parents (grouping nodes such as "Natural fibres") are only reached through their children.
    if (categories.some((x) => x.parent_id === c.id)) continue;
    // Fibres the parser knows are found only through it (it skips "cotton lining", "trim").
    if (termsOf(c).some((t) => FIBRE_VOCABULARY.has(t))) continue;
    if (c.keywords.some((t) => hasTerm(src, t.toLowerCase()))) add(c, null);
  }
  const blends = categories.find((c) => c.handle === "blends");
  if (blends && (out.size > 1 || (out.size > 0 && /\bblend\b|混纺/.test(src)))) add(blends, null);
  return [...out.values()].sort((a, b) => (b.percent ?? -1) - (a.percent ?? -1) || a.category.name.localeCompare(b.category.name));
}

/** Replaces a product's materials with those its composition text names; answers them. */
export async function setProductMaterialsFromText(db: Db | Tx, productId: string, text: string): Promise<ProductMaterial[]> {
  const categories = await db.materialCategory.findMany({ select: { id: true, name: true, handle: true, parent_id: true, keywords: true } });
  const mapped = text.trim() ? mapComposition(text, categories) : [];
  await db.productMaterial.deleteMany({ where: { product_id: productId } });
  if (mapped.length) {
    await db.productMaterial.createMany({ data: mapped.map((m) => ({ product_id: productId, material_category_id: m.category.id, percent: m.percent })) });
  }
  return mapped.map((m) => ({ id: m.category.id, name: m.category.name, handle: m.category.handle, percent: m.percent }));
}

export async function productMaterials(db: Db | Tx, productId: string): Promise<ProductMaterial[]> {
  const rows = await db.productMaterial.findMany({ where: { product_id: productId }, include: { category: { select: { id: true, name: true, handle: true } } } });
  return rows
    .map((r) => ({ id: r.category.id, name: r.category.name, handle: r.category.handle, percent: r.percent }))
    .sort((a, b) => (b.percent ?? -1) - (a.percent ?? -1) || a.name.localeCompare(b.name));
}

/**
 * The category ids a search filter of handles selects: each handle's category and everything
 * under it ("wool" finds merino and cashmere too). Unknown handles select nothing.
 */
export async function materialFilterIds(db: Db, handles: string[]): Promise<string[]> {
  const rows = await db.materialCategory.findMany({ select: { id: true, handle: true, parent_id: true } });
  const wanted = new Set(handles.map((h) => h.toLowerCase()));
  return [...new Set(rows.filter((r) => wanted.has(r.handle)).flatMap((r) => subtreeIds(rows, r.id)))];
}
